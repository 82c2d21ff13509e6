package svc_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	svc "svc.example/sdk-go"
)

func TestWebhookVerification(t *testing.T) {
	payload := []byte(`{"specversion":"1.0","id":"evt_1","type":"assessment.created","data":{"status":"draft"}}`)
	now := time.Unix(1_800_000_000, 0)
	header := svc.GenerateWebhookTestHeader(payload, "whsec_a", now)
	at := func(t time.Time) func() time.Time { return func() time.Time { return t } }

	event, err := svc.VerifyWebhookWithOptions(payload, header, svc.WebhookVerifyOptions{Secrets: []string{"whsec_b", "whsec_a"}, Now: at(now)})
	if err != nil || event.ID != "evt_1" || event.Type != "assessment.created" {
		t.Fatalf("verify: %v %+v", err, event)
	}
	var data struct{ Status string }
	if err := event.DecodeData(&data); err != nil || data.Status != "draft" {
		t.Fatalf("data: %v %+v", err, data)
	}

	v1 := strings.Index(header, "v1=") + 3
	cases := []struct {
		name    string
		payload []byte
		header  string
		now     time.Time
		reason  string
	}{
		{"missing header", payload, "", now, svc.ReasonMissingHeader},
		{"malformed item", payload, "t=1,garbage", now, svc.ReasonMalformedHeader},
		{"no timestamp", payload, "v1=" + strings.Repeat("0", 64), now, svc.ReasonMalformedHeader},
		{"non-numeric timestamp", payload, "t=12a,v1=" + strings.Repeat("0", 64), now, svc.ReasonMalformedHeader},
		{"no v1", payload, "t=1800000000,v0=abc", now, svc.ReasonNoSignatures},
		{"too old", payload, header, now.Add(301 * time.Second), svc.ReasonTimestampTooOld},
		{"too new", payload, header, now.Add(-301 * time.Second), svc.ReasonTimestampTooNew},
		{"tampered body", []byte(strings.Replace(string(payload), "draft", "final", 1)), header, now, svc.ReasonSignatureMismatch},
		{"uppercase hex", payload, header[:v1] + strings.ToUpper(header[v1:]), now, svc.ReasonSignatureMismatch},
		{"not JSON", []byte("nope"), svc.GenerateWebhookTestHeader([]byte("nope"), "whsec_a", now), now, svc.ReasonMalformedBody},
	}
	for _, c := range cases {
		_, err := svc.VerifyWebhookWithOptions(c.payload, c.header, svc.WebhookVerifyOptions{Secrets: []string{"whsec_a"}, Now: at(c.now)})
		var refused *svc.WebhookVerificationError
		if !errors.As(err, &refused) || refused.Reason != c.reason {
			t.Errorf("%s: got %v, want reason %s", c.name, err, c.reason)
		}
	}
	// At the edge of the tolerance, both ways, the signature still holds.
	for _, d := range []time.Duration{300 * time.Second, -300 * time.Second} {
		if _, err := svc.VerifyWebhookWithOptions(payload, header, svc.WebhookVerifyOptions{Secrets: []string{"whsec_a"}, Now: at(now.Add(d))}); err != nil {
			t.Errorf("tolerance %v: %v", d, err)
		}
	}
	if _, err := svc.VerifyWebhook(payload, header, "whsec_wrong"); err == nil {
		t.Error("a wrong secret was accepted")
	}
	// A signature for now passes with the default clock.
	if _, err := svc.VerifyWebhook(payload, svc.GenerateWebhookTestHeader(payload, "whsec_a", time.Now()), "whsec_a"); err != nil {
		t.Error(err)
	}
}
