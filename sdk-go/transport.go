package svc

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const initialRetryDelay = 500 * time.Millisecond

// Do sends one logical call to the API, retries included, and is what every generated method
// uses. path is the path under the base URL (it may carry its own query); query is added to it;
// body is sent as JSON when non-nil. out receives the answer: a pointer to decode JSON into, a
// *File for any body as bytes, or nil to drop it. A non-2xx answer is returned as a typed error.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body, out any, opts ...RequestOption) error {
	return c.call(ctx, method, path, query, body, out, opts)
}

func (c *Client) call(ctx context.Context, method, path string, query url.Values, body, out any, opts []RequestOption) error {
	var cfg requestConfig
	for _, opt := range opts {
		opt(&cfg)
	}
	method = strings.ToUpper(method)
	target := c.baseURL + path
	if q := query.Encode(); q != "" {
		if strings.Contains(path, "?") {
			target += "&" + q
		} else {
			target += "?" + q
		}
	}
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("svc: encode the body of %s %s: %w", method, path, err)
		}
	}
	header := http.Header{}
	header.Set("Accept", "application/json")
	header.Set("User-Agent", "svc-sdk-go/"+Version)
	for k, v := range c.headers {
		header[k] = v
	}
	header.Set("Authorization", "Bearer "+c.apiKey)
	if c.tenantID != "" {
		header.Set(HeaderTenant, c.tenantID)
	}
	for k, v := range cfg.headers {
		header[k] = v
	}
	if cfg.idempotencyKey != "" {
		header.Set(HeaderIdempotencyKey, cfg.idempotencyKey)
	} else if method == http.MethodPost && header.Get(HeaderIdempotencyKey) == "" {
		// One key for the call, reused by every retry: the API runs a retried POST at most once.
		header.Set(HeaderIdempotencyKey, NewIdempotencyKey())
	}
	if payload != nil {
		header.Set("Content-Type", "application/json")
	}

	for attempt := 0; ; attempt++ {
		res, data, err := c.attempt(ctx, method, target, header, payload)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			connErr := &ConnectionError{Method: method, Path: path, Attempts: attempt + 1, Err: err, Timeout: errors.Is(err, context.DeadlineExceeded)}
			if attempt >= c.maxRetries {
				return connErr
			}
			if err := sleep(ctx, backoff(attempt, c.maxRetryDelay)); err != nil {
				return err
			}
			continue
		}
		meta := newResponse(res, attempt+1)
		if cfg.response != nil {
			*cfg.response = meta
		}
		if res.StatusCode >= 200 && res.StatusCode < 300 {
			return decode(res, data, out, method, path)
		}
		apiErr := newAPIError(res, data)
		if (res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable) && attempt < c.maxRetries {
			delay := backoff(attempt, c.maxRetryDelay)
			if apiErr.RetryAfter > 0 || res.Header.Get(HeaderRetryAfter) != "" {
				delay = apiErr.RetryAfter
				if delay > c.maxRetryDelay {
					delay = c.maxRetryDelay
				}
			}
			if err := sleep(ctx, delay); err != nil {
				return err
			}
			continue
		}
		return typedError(apiErr)
	}
}

// attempt sends one request and reads the whole body within the per-attempt timeout.
func (c *Client) attempt(ctx context.Context, method, target string, header http.Header, payload []byte) (*http.Response, []byte, error) {
	actx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(actx, method, target, body)
	if err != nil {
		return nil, nil, err
	}
	req.Header = header.Clone()
	res, err := c.httpClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, err
	}
	return res, data, nil
}

func decode(res *http.Response, data []byte, out any, method, path string) error {
	switch o := out.(type) {
	case nil:
		return nil
	case *File:
		*o = File{StatusCode: res.StatusCode, ContentType: res.Header.Get("Content-Type"), Data: data}
		if _, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition")); err == nil {
			o.Filename = params["filename"]
		}
		return nil
	case *[]byte:
		*o = data
		return nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("svc: decode the answer of %s %s: %w", method, path, err)
	}
	return nil
}

// backoff is 0.5 s, 1 s, 2 s, ... capped, with jitter between half and all of the step.
func backoff(attempt int, max time.Duration) time.Duration {
	d := time.Duration(float64(initialRetryDelay) * math.Pow(2, float64(attempt)))
	if d > max || d <= 0 {
		d = max
	}
	return time.Duration(float64(d) * (0.5 + mrand.Float64()*0.5))
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// NewIdempotencyKey returns a fresh key, idk_<uuid v4>, as the client sends on every POST.
func NewIdempotencyKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("svc: no randomness for an idempotency key: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return "idk_" + h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// parseRetryAfter reads Retry-After: delta-seconds or an HTTP date; 0 when absent or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}
