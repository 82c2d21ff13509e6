// Package svc is the Go client of the compliance platform API.
//
// One Client, built with options, reaches every operation of the API through services grouped by
// rail, as the operation ids name them:
//
//	client, err := svc.NewClient(svc.WithAPIKey("svc_test_..."))
//	asm, err := client.Compliance.Assessments.Create(ctx, &svc.CreateAssessmentRequest{...})
//
// Every method takes a context.Context first and returns a typed result or an error: a typed API
// error per error code (errors.As with *svc.NotFoundError, *svc.ValidationFailedError, ...; or
// *svc.APIError for any code), or a *svc.ConnectionError when no response came back. Requests are
// retried after 429, 503 and network failures with exponential backoff and jitter (Retry-After
// honoured), and every POST carries one Idempotency-Key for all of its attempts.
package svc

import (
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// DefaultBaseURL is the API origin used when neither WithBaseURL nor SVC_URL gives one.
const DefaultBaseURL = "http://127.0.0.1:8080"

// Header names of the API.
const (
	HeaderTenant             = "X-IOF-Tenant"
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderCorrelationID      = "X-Correlation-Id"
	HeaderIdempotentReplayed = "Idempotent-Replayed"
	HeaderRateLimitLimit     = "X-RateLimit-Limit"
	HeaderRateLimitRemaining = "X-RateLimit-Remaining"
	HeaderRateLimitReset     = "X-RateLimit-Reset"
	HeaderRetryAfter         = "Retry-After"
)

// Client calls the API. It is safe for concurrent use; build one and share it.
type Client struct {
	services

	baseURL       string
	apiKey        string
	tenantID      string
	httpClient    *http.Client
	timeout       time.Duration
	maxRetries    int
	maxRetryDelay time.Duration
	headers       http.Header
}

// Option configures a Client in NewClient.
type Option func(*Client)

// WithBaseURL sets the origin of the API (default: $SVC_URL, else http://127.0.0.1:8080).
func WithBaseURL(u string) Option { return func(c *Client) { c.baseURL = u } }

// WithAPIKey sets the key sent as "Authorization: Bearer <key>" (default: $SVC_API_KEY).
func WithAPIKey(key string) Option { return func(c *Client) { c.apiKey = key } }

// WithTenant sends X-IOF-Tenant on every request; the API answers 403 when it is not the key's tenant.
func WithTenant(id string) Option { return func(c *Client) { c.tenantID = id } }

// WithHTTPClient replaces http.DefaultClient (proxies, custom transports, instrumentation).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.httpClient = h } }

// WithTimeout bounds one attempt, response body included (default 30 s).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithMaxRetries sets how many times a call is retried after a 429, a 503 or a network failure
// (default 3; 0 disables retries).
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetries = n } }

// WithMaxRetryDelay caps any wait between attempts, Retry-After included (default 30 s).
func WithMaxRetryDelay(d time.Duration) Option { return func(c *Client) { c.maxRetryDelay = d } }

// WithHeader adds a header to every request.
func WithHeader(key, value string) Option { return func(c *Client) { c.headers.Set(key, value) } }

// ErrNoAPIKey is returned by NewClient when no key was given and SVC_API_KEY is empty.
var ErrNoAPIKey = errors.New("svc: no API key: pass svc.WithAPIKey or set SVC_API_KEY")

// NewClient builds a client. The base URL and the API key default to the SVC_URL and
// SVC_API_KEY environment variables.
func NewClient(opts ...Option) (*Client, error) {
	c := &Client{
		baseURL:       os.Getenv("SVC_URL"),
		apiKey:        os.Getenv("SVC_API_KEY"),
		httpClient:    http.DefaultClient,
		timeout:       30 * time.Second,
		maxRetries:    3,
		maxRetryDelay: 30 * time.Second,
		headers:       http.Header{},
	}
	if c.baseURL == "" {
		c.baseURL = DefaultBaseURL
	}
	for _, opt := range opts {
		opt(c)
	}
	u, err := url.Parse(c.baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("svc: the base URL must be an http(s) URL, got " + c.baseURL)
	}
	c.baseURL = strings.TrimRight(c.baseURL, "/")
	if c.apiKey == "" {
		return nil, ErrNoAPIKey
	}
	if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	if c.httpClient == nil {
		c.httpClient = http.DefaultClient
	}
	c.initServices()
	return c, nil
}

// BaseURL is the origin the client sends requests to.
func (c *Client) BaseURL() string { return c.baseURL }

// Ptr returns a pointer to v: for optional fields, svc.Ptr(int64(10)), svc.Ptr("eu/de").
func Ptr[T any](v T) *T { return &v }
