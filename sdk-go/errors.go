package svc

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// APIError is an error answer of the API (any non-2xx status). Every call returns it wrapped in
// the type of its code (*NotFoundError, *ValidationFailedError, ...): match one code with
// errors.As(err, &notFound), or any of them with errors.As(err, &apiErr) where apiErr is a *APIError.
type APIError struct {
	// Status is the HTTP status.
	Status int
	// Code is the envelope's error code (not_found, validation_failed, ...), or for a body that is
	// not an envelope the code its status stands for.
	Code string
	// Message is the human-readable explanation; do not parse it.
	Message string
	// CorrelationID identifies the request in the server's logs; quote it to support.
	CorrelationID string
	// Details lists per-field problems; empty when the API gave none.
	Details []ErrorDetail
	// DocumentationURL links to the description of the code.
	DocumentationURL string
	// RetryAfter is the Retry-After header as a duration (0 when absent).
	RetryAfter time.Duration
	// RateLimit holds the X-RateLimit-* headers of the answer.
	RateLimit RateLimit
	// Header is the answer's headers.
	Header http.Header
	// Body is the answer's body as received.
	Body []byte
}

// ErrorDetail is one field-level problem of an error answer.
type ErrorDetail struct {
	// Field is the dotted path of the field (systemId, controls.0.id, body, query.limit).
	Field string `json:"field"`
	// Issue is missing, invalid_type, invalid_value, too_small, too_big, invalid_format,
	// unknown_field or a code-specific word.
	Issue string `json:"issue"`
	// Message explains the issue, when the API gave one.
	Message string `json:"message,omitempty"`
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("svc: %d %s: %s", e.Status, e.Code, e.Message)
	if e.CorrelationID != "" {
		s += " (correlation " + e.CorrelationID + ")"
	}
	return s
}

type envelope struct {
	Error            *string       `json:"error"`
	Message          *string       `json:"message"`
	Details          []ErrorDetail `json:"details"`
	CorrelationID    string        `json:"correlation_id"`
	DocumentationURL string        `json:"documentation_url"`
}

func newAPIError(res *http.Response, body []byte) *APIError {
	e := &APIError{
		Status:     res.StatusCode,
		Header:     res.Header,
		Body:       body,
		RetryAfter: parseRetryAfter(res.Header.Get(HeaderRetryAfter), time.Now()),
		RateLimit:  ParseRateLimit(res.Header),
	}
	var env envelope
	_ = json.Unmarshal(body, &env)
	if env.Error != nil {
		e.Code = *env.Error
	} else {
		e.Code = codeForStatus(res.StatusCode)
	}
	if env.Message != nil {
		e.Message = *env.Message
	} else {
		e.Message = fmt.Sprintf("HTTP %d", res.StatusCode)
		if len(body) > 0 {
			text := string(body)
			if len(text) > 200 {
				text = text[:200]
			}
			e.Message += ": " + text
		}
	}
	e.Details = env.Details
	e.CorrelationID = env.CorrelationID
	if e.CorrelationID == "" {
		e.CorrelationID = res.Header.Get(HeaderCorrelationID)
	}
	e.DocumentationURL = env.DocumentationURL
	return e
}

// ConnectionError is a call that got no HTTP response: DNS or connection failure, a reset, or the
// per-attempt timeout (Timeout). Returned once the retries are spent.
type ConnectionError struct {
	Method   string
	Path     string
	Attempts int
	Timeout  bool
	Err      error
}

func (e *ConnectionError) Error() string {
	if e.Timeout {
		return fmt.Sprintf("svc: %s %s: no response in time after %d attempt(s): %v", e.Method, e.Path, e.Attempts, e.Err)
	}
	return fmt.Sprintf("svc: %s %s: no response after %d attempt(s): %v", e.Method, e.Path, e.Attempts, e.Err)
}

// Unwrap returns the underlying network error.
func (e *ConnectionError) Unwrap() error { return e.Err }
