package svc_test

// A local handler stands in for the server only for what the live tests (test/sdk-go.test.ts)
// cannot make it do on demand: a 503, a body that is not an envelope, a refused connection, pages
// of a chosen shape, exact retry timings.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	svc "svc.example/sdk-go"
)

type recorded struct {
	at  time.Time
	key string
}

func handler(t *testing.T, fn func(w http.ResponseWriter, r *http.Request, n int)) (*svc.Client, func() []recorded) {
	t.Helper()
	var mu sync.Mutex
	var seen []recorded
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, recorded{time.Now(), r.Header.Get(svc.HeaderIdempotencyKey)})
		n := len(seen)
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer svc_test_key" {
			w.WriteHeader(401)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fn(w, r, n)
	}))
	t.Cleanup(srv.Close)
	client, err := svc.NewClient(svc.WithBaseURL(srv.URL), svc.WithAPIKey("svc_test_key"), svc.WithMaxRetryDelay(40*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return client, func() []recorded {
		mu.Lock()
		defer mu.Unlock()
		return append([]recorded(nil), seen...)
	}
}

func TestRetries503WithOneKeyAndBackoff(t *testing.T) {
	client, seen := handler(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n < 4 {
			w.WriteHeader(503) // no Retry-After: exponential backoff, capped at 40 ms, with jitter
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	var out struct{ OK bool }
	var res svc.Response
	if err := client.Do(context.Background(), "POST", "/v1/x", nil, map[string]int{"a": 1}, &out, svc.WithResponse(&res)); err != nil || !out.OK {
		t.Fatalf("%v %+v", err, out)
	}
	reqs := seen()
	if res.Attempts != 4 || len(reqs) != 4 {
		t.Fatalf("attempts %d, requests %d", res.Attempts, len(reqs))
	}
	for i := 1; i < 4; i++ {
		if reqs[i].key == "" || reqs[i].key != reqs[0].key {
			t.Errorf("attempt %d carried key %q, the first %q", i, reqs[i].key, reqs[0].key)
		}
		if gap := reqs[i].at.Sub(reqs[i-1].at); gap < 20*time.Millisecond || gap > 400*time.Millisecond {
			t.Errorf("wait before attempt %d: %v, want 20-40 ms (half to all of the capped step)", i, gap)
		}
	}
	if !strings.HasPrefix(reqs[0].key, "idk_") || len(reqs[0].key) != 40 {
		t.Errorf("generated key %q", reqs[0].key)
	}
}

func TestNoRetryOnOther4xxTypedErrors(t *testing.T) {
	client, seen := handler(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Path {
		case "/bad":
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":"bad_request","message":"Bad cursor.","details":[{"field":"cursor","issue":"invalid_format"}],"correlation_id":"cor_y","documentation_url":"u"}`))
		case "/gateway":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set(svc.HeaderCorrelationID, "cor_h")
			w.WriteHeader(502)
			_, _ = w.Write([]byte(`<html>bad gateway</html>`))
		case "/limited":
			w.Header().Set(svc.HeaderRetryAfter, time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
			w.Header().Set(svc.HeaderRateLimitLimit, "5")
			w.Header().Set(svc.HeaderRateLimitRemaining, "0")
			w.Header().Set(svc.HeaderRateLimitReset, "1800000000")
			w.WriteHeader(429)
			_, _ = w.Write([]byte(`{"error":"rate_limited","message":"Slow down.","correlation_id":"cor_r","documentation_url":"u"}`))
		}
	})
	ctx := context.Background()
	var res svc.Response
	err := client.Do(ctx, "GET", "/bad", nil, nil, nil, svc.WithResponse(&res))
	var bad *svc.BadRequestError
	var apiErr *svc.APIError
	var notFound *svc.NotFoundError
	if !errors.As(err, &bad) || !errors.As(err, &apiErr) || errors.As(err, &notFound) {
		t.Fatalf("400: %T %v", err, err)
	}
	if res.Attempts != 1 || bad.Status != 400 || bad.Code != svc.CodeBadRequest || bad.Details[0].Field != "cursor" || bad.CorrelationID != "cor_y" {
		t.Fatalf("400 fields: attempts %d %+v", res.Attempts, bad.APIError)
	}
	if seen()[0].key != "" {
		t.Error("a GET carried an idempotency key")
	}

	// Not an envelope: the code follows the status, the correlation id the header.
	err = client.Do(ctx, "GET", "/gateway", nil, nil, nil)
	var internal *svc.InternalError
	if !errors.As(err, &internal) || internal.Status != 502 || internal.CorrelationID != "cor_h" || !strings.Contains(internal.Message, "bad gateway") {
		t.Fatalf("502: %T %v", err, err)
	}

	// Retries off: the 429 surfaces with Retry-After (an HTTP date here) and the rate-limit headers.
	noRetry, _ := svc.NewClient(svc.WithBaseURL(client.BaseURL()), svc.WithAPIKey("svc_test_key"), svc.WithMaxRetries(0))
	err = noRetry.Do(ctx, "GET", "/limited", nil, nil, nil)
	var limited *svc.RateLimitedError
	if !errors.As(err, &limited) || limited.RetryAfter < time.Second || limited.RetryAfter > 3*time.Second {
		t.Fatalf("429: %T %v", err, err)
	}
	if limited.RateLimit.Limit != 5 || limited.RateLimit.Remaining != 0 || limited.RateLimit.Reset.Unix() != 1800000000 {
		t.Errorf("rate limit %+v", limited.RateLimit)
	}
}

func TestAutoPagingFollowsCursors(t *testing.T) {
	pages := map[string]string{
		"":  `{"data":[{"id":"asm_1"},{"id":"asm_2"}],"cursor":"b"}`,
		"b": `{"data":[],"cursor":"c"}`,
		"c": `{"data":[{"id":"asm_3"}],"cursor":null}`,
	}
	var cursors []string
	var mu sync.Mutex
	client, _ := handler(t, func(w http.ResponseWriter, r *http.Request, n int) {
		mu.Lock()
		cursors = append(cursors, r.URL.Query().Get("cursor")+"|"+r.URL.Query().Get("limit")+"|"+r.URL.Query().Get("status"))
		mu.Unlock()
		_, _ = w.Write([]byte(pages[r.URL.Query().Get("cursor")]))
	})
	it := client.Compliance.Assessments.ListAutoPaging(context.Background(), &svc.ComplianceAssessmentsListParams{
		Limit:  svc.Ptr(int64(2)),
		Status: svc.Ptr(svc.AssessmentStatusDraft),
	})
	var ids []string
	for it.Next() {
		ids = append(ids, it.Current().ID)
	}
	if it.Err() != nil || fmt.Sprint(ids) != "[asm_1 asm_2 asm_3]" || it.Pages() != 3 {
		t.Fatalf("ids %v, pages %d, err %v", ids, it.Pages(), it.Err())
	}
	if fmt.Sprint(cursors) != "[|2|draft b|2|draft c|2|draft]" {
		t.Errorf("requests %v", cursors)
	}

	failing, _ := handler(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(404) })
	it = failing.Compliance.Assessments.ListAutoPaging(context.Background(), nil)
	var notFound *svc.NotFoundError
	if it.Next() || !errors.As(it.Err(), &notFound) {
		t.Fatalf("an error must stop the walk: %v", it.Err())
	}
}

func TestConnectionErrorAfterRetries(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	client, err := svc.NewClient(svc.WithBaseURL("http://"+addr), svc.WithAPIKey("k"), svc.WithMaxRetries(2), svc.WithMaxRetryDelay(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	err = client.Do(context.Background(), "GET", "/v1/health", nil, nil, nil)
	var connErr *svc.ConnectionError
	var apiErr *svc.APIError
	if !errors.As(err, &connErr) || connErr.Attempts != 3 || errors.As(err, &apiErr) {
		t.Fatalf("want *ConnectionError after 3 attempts, got %T %v", err, err)
	}
}

func TestNewClientOptions(t *testing.T) {
	t.Setenv("SVC_URL", "")
	t.Setenv("SVC_API_KEY", "")
	if _, err := svc.NewClient(); !errors.Is(err, svc.ErrNoAPIKey) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := svc.NewClient(svc.WithAPIKey("k"), svc.WithBaseURL("ftp://x")); err == nil {
		t.Fatal("an ftp base URL was accepted")
	}
	t.Setenv("SVC_URL", "http://api.example:9/")
	t.Setenv("SVC_API_KEY", "svc_test_env")
	c, err := svc.NewClient()
	if err != nil || c.BaseURL() != "http://api.example:9" {
		t.Fatalf("env defaults: %v", err)
	}
	if a, b := svc.NewIdempotencyKey(), svc.NewIdempotencyKey(); a == b || !strings.HasPrefix(a, "idk_") {
		t.Errorf("keys %q %q", a, b)
	}
}
