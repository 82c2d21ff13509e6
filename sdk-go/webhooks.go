package svc

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header of a webhook delivery that carries its signature,
// "t=<unix seconds>,v1=<hex HMAC-SHA256>" (several v1 during a secret rotation).
const SignatureHeader = "X-Svc-Signature"

// DefaultWebhookTolerance is the largest accepted difference between a signature's timestamp and
// now, in either direction.
const DefaultWebhookTolerance = 300 * time.Second

// Reasons a webhook delivery is refused (WebhookVerificationError.Reason).
const (
	ReasonMissingHeader     = "missing_header"
	ReasonMalformedHeader   = "malformed_header"
	ReasonNoSignatures      = "no_signatures"
	ReasonTimestampTooOld   = "timestamp_too_old"
	ReasonTimestampTooNew   = "timestamp_too_new"
	ReasonSignatureMismatch = "signature_mismatch"
	ReasonMalformedBody     = "malformed_body"
)

// WebhookVerificationError says why VerifyWebhook refused a delivery; answer it with a 4xx.
type WebhookVerificationError struct {
	// Reason is one of the Reason* constants.
	Reason  string
	Message string
}

func (e *WebhookVerificationError) Error() string { return "svc: webhook refused: " + e.Message }

// WebhookEvent is the CloudEvents 1.0 envelope of every delivery. Deduplicate by ID: delivery is
// at least once.
type WebhookEvent struct {
	// SpecVersion is the CloudEvents version, "1.0".
	SpecVersion string `json:"specversion"`
	// ID is the stable event id (evt_...), the de-duplication key.
	ID string `json:"id"`
	// Source is the URL of the emitting entity.
	Source string `json:"source"`
	// Type is the event type, e.g. assessment.created.
	Type string `json:"type"`
	// DataContentType is the media type of Data, "application/json".
	DataContentType string `json:"datacontenttype"`
	// Time is when the event happened (ISO 8601 UTC with milliseconds).
	Time string `json:"time"`
	// Subject is the id of the entity the event is about.
	Subject string `json:"subject"`
	// TenantID is the tenant the event belongs to (a CloudEvents extension attribute).
	TenantID string `json:"tenantid"`
	// Data is the record the event is about, as the matching GET returns it; see DecodeData.
	Data json.RawMessage `json:"data"`
}

// DecodeData decodes Data into v, e.g. a *svc.Assessment for assessment.* events.
func (e *WebhookEvent) DecodeData(v any) error { return json.Unmarshal(e.Data, v) }

// WebhookVerifyOptions tunes VerifyWebhookWithOptions.
type WebhookVerifyOptions struct {
	// Secrets are the subscription's whsec_... secrets; any one may match (several while you roll
	// your configuration).
	Secrets []string
	// Tolerance is the accepted clock difference either way; DefaultWebhookTolerance when zero.
	Tolerance time.Duration
	// Now is the current time (tests); time.Now when nil.
	Now func() time.Time
}

// VerifyWebhook checks one delivery the way the dispatcher signs it and returns its envelope.
// payload is the request body exactly as received (never a re-encoded copy), header the
// X-Svc-Signature header and secret the subscription's secret.
func VerifyWebhook(payload []byte, header, secret string) (*WebhookEvent, error) {
	return VerifyWebhookWithOptions(payload, header, WebhookVerifyOptions{Secrets: []string{secret}})
}

// VerifyWebhookWithOptions is VerifyWebhook with several secrets, another tolerance or a clock.
// The timestamp must lie within the tolerance of now, in the past and in the future; every v1
// is compared with every secret in constant time.
func VerifyWebhookWithOptions(payload []byte, header string, opts WebhookVerifyOptions) (*WebhookEvent, error) {
	refuse := func(reason, msg string) (*WebhookEvent, error) {
		return nil, &WebhookVerificationError{Reason: reason, Message: msg}
	}
	if header == "" {
		return refuse(ReasonMissingHeader, "the X-Svc-Signature header is missing")
	}
	tolerance := opts.Tolerance
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	var timestamp string
	var haveTimestamp bool
	var signatures []string
	for _, item := range strings.Split(header, ",") {
		i := strings.Index(item, "=")
		if i < 1 {
			return refuse(ReasonMalformedHeader, "the signature header must be t=<unix>,v1=<hex>[,v1=<hex>]")
		}
		key, value := strings.TrimSpace(item[:i]), strings.TrimSpace(item[i+1:])
		switch key {
		case "t":
			timestamp, haveTimestamp = value, true
		case "v1":
			signatures = append(signatures, value)
		}
	}
	if !haveTimestamp || !isDigits(timestamp, 1, 12) {
		return refuse(ReasonMalformedHeader, "the signature header has no valid t= timestamp")
	}
	if len(signatures) == 0 {
		return refuse(ReasonNoSignatures, "the signature header has no v1= signature")
	}
	now := time.Now()
	if opts.Now != nil {
		now = opts.Now()
	}
	t, _ := strconv.ParseInt(timestamp, 10, 64)
	tolSeconds := int64(tolerance / time.Second)
	if now.Unix()-t > tolSeconds {
		return refuse(ReasonTimestampTooOld, "the signature is older than the tolerance")
	}
	if t-now.Unix() > tolSeconds {
		return refuse(ReasonTimestampTooNew, "the signature is further in the future than the tolerance")
	}
	matched := false
	for _, secret := range opts.Secrets {
		expected := signWebhook(secret, timestamp, payload)
		for _, sig := range signatures {
			got, err := hex.DecodeString(sig)
			// Every candidate is compared, matched or not, so timing does not tell which one matched.
			if err == nil && len(sig) == 64 && strings.ToLower(sig) == sig && hmac.Equal(expected, got) {
				matched = true
			}
		}
	}
	if !matched {
		return refuse(ReasonSignatureMismatch, "no signature matches the body and secret")
	}
	var event WebhookEvent
	if err := json.Unmarshal(payload, &event); err != nil {
		return refuse(ReasonMalformedBody, "the body is not a JSON event envelope")
	}
	return &event, nil
}

// GenerateWebhookTestHeader signs payload as the dispatcher would, for testing a handler
// without a server.
func GenerateWebhookTestHeader(payload []byte, secret string, at time.Time) string {
	ts := strconv.FormatInt(at.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(signWebhook(secret, ts, payload))
}

func signWebhook(secret, timestamp string, payload []byte) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(payload)
	return mac.Sum(nil)
}

func isDigits(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
