package svc

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RequestOption changes one call: the last, variadic, argument of every method.
type RequestOption func(*requestConfig)

type requestConfig struct {
	idempotencyKey string
	headers        http.Header
	response       *Response
}

// WithIdempotencyKey sets the Idempotency-Key of a call (by default every POST gets a fresh
// idk_<uuid>). A repeat with the same key within 24 h returns the first response.
func WithIdempotencyKey(key string) RequestOption {
	return func(r *requestConfig) { r.idempotencyKey = key }
}

// WithRequestHeader sets a header on this call only; it overrides the client's.
func WithRequestHeader(key, value string) RequestOption {
	return func(r *requestConfig) {
		if r.headers == nil {
			r.headers = http.Header{}
		}
		r.headers.Set(key, value)
	}
}

// WithResponse fills *r with the status and headers of the last attempt (rate-limit headers
// included), on success and on API errors alike.
func WithResponse(r *Response) RequestOption {
	return func(c *requestConfig) { c.response = r }
}

// Response describes the HTTP response of a call.
type Response struct {
	// StatusCode of the last attempt.
	StatusCode int
	// Header of the last attempt.
	Header http.Header
	// Attempts is how many requests the call sent (1 without retries).
	Attempts int
	// CorrelationID is the X-Correlation-Id header; quote it to support.
	CorrelationID string
	// IdempotentReplayed is true when the API answered a repeated Idempotency-Key with the first response.
	IdempotentReplayed bool
	// RateLimit holds the X-RateLimit-* headers.
	RateLimit RateLimit
}

// RateLimit is the tenant's rate-limit window as the response headers state it.
type RateLimit struct {
	// Limit is the number of requests allowed per window (X-RateLimit-Limit); 0 when absent.
	Limit int
	// Remaining is the number of requests left in the window (X-RateLimit-Remaining).
	Remaining int
	// Reset is when the window resets (X-RateLimit-Reset); zero when absent.
	Reset time.Time
}

// ParseRateLimit reads the X-RateLimit-* headers.
func ParseRateLimit(h http.Header) RateLimit {
	var rl RateLimit
	rl.Limit, _ = strconv.Atoi(h.Get(HeaderRateLimitLimit))
	rl.Remaining, _ = strconv.Atoi(h.Get(HeaderRateLimitRemaining))
	if s, err := strconv.ParseInt(h.Get(HeaderRateLimitReset), 10, 64); err == nil {
		rl.Reset = time.Unix(s, 0)
	}
	return rl
}

func newResponse(res *http.Response, attempts int) Response {
	return Response{
		StatusCode:         res.StatusCode,
		Header:             res.Header,
		Attempts:           attempts,
		CorrelationID:      res.Header.Get(HeaderCorrelationID),
		IdempotentReplayed: strings.EqualFold(res.Header.Get(HeaderIdempotentReplayed), "true"),
		RateLimit:          ParseRateLimit(res.Header),
	}
}

// File is the answer of an operation whose success response is not JSON (report PDFs, packs).
// When the operation may also answer JSON (a report still rendering: 202), ContentType says so
// and DecodeJSON reads it.
type File struct {
	// StatusCode of the response (200 for the file itself).
	StatusCode int
	// ContentType of the response, e.g. application/pdf.
	ContentType string
	// Filename from Content-Disposition, when the API gave one.
	Filename string
	// Data is the body.
	Data []byte
}

// IsJSON tells whether the body is JSON rather than the file.
func (f *File) IsJSON() bool { return strings.HasPrefix(f.ContentType, "application/json") }
