package svc_test

// Tests against a running API, driven by test/sdk-go.test.ts: it starts a server and a tenant,
// compiles this package's tests once (go test -c) and runs one test per case with SVC_E2E=1,
// SVC_URL, SVC_API_KEY and the case's own variables. Without SVC_E2E they skip.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	svc "svc.example/sdk-go"
)

func requireE2E(t *testing.T) {
	t.Helper()
	if os.Getenv("SVC_E2E") != "1" {
		t.Skip("SVC_E2E is not set: run by test/sdk-go.test.ts against a live server")
	}
}

func e2eClient(t *testing.T, opts ...svc.Option) *svc.Client {
	t.Helper()
	requireE2E(t)
	client, err := svc.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

func env(t *testing.T, name string) string {
	t.Helper()
	requireE2E(t)
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set", name)
	}
	return v
}

func TestE2EPaginatedWalk(t *testing.T) {
	client := e2eClient(t)
	limit, _ := strconv.ParseInt(env(t, "SVC_E2E_LIMIT"), 10, 64)
	ctx := context.Background()
	it := client.Compliance.Assessments.ListAutoPaging(ctx, &svc.ComplianceAssessmentsListParams{Limit: svc.Ptr(limit)})
	for it.Next() {
		fmt.Printf("id %s\n", it.Current().ID)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("pages %d\n", it.Pages())

	// One page by hand: Data and Cursor.
	page, err := client.Compliance.Assessments.List(ctx, &svc.ComplianceAssessmentsListParams{Limit: svc.Ptr(limit)})
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(page.Data)) != limit || !page.HasMore() {
		t.Fatalf("first page: %d records, cursor %v", len(page.Data), page.Cursor)
	}
}

func TestE2ETypedErrors(t *testing.T) {
	client := e2eClient(t)
	ctx := context.Background()

	var res svc.Response
	_, err := client.Compliance.Assessments.Get(ctx, "asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R", svc.WithResponse(&res))
	if res.StatusCode != 404 || res.Attempts != 1 {
		t.Fatalf("a 404 was retried or not seen: status %d, %d attempts", res.StatusCode, res.Attempts)
	}
	var notFound *svc.NotFoundError
	var apiErr *svc.APIError
	if !errors.As(err, &notFound) || !errors.As(err, &apiErr) {
		t.Fatalf("want *NotFoundError, got %T %v", err, err)
	}
	if notFound.Status != 404 || notFound.Code != svc.CodeNotFound || notFound.CorrelationID == "" || notFound.Message == "" {
		t.Fatalf("404 fields: %+v", notFound.APIError)
	}
	if apiErr.RateLimit.Limit == 0 {
		t.Errorf("rate-limit headers not read from the error answer: %v", apiErr.Header)
	}
	fmt.Printf("not_found %d %s %s\n", notFound.Status, notFound.Code, notFound.CorrelationID)

	// A typed call with a value outside the enum and an empty system id.
	_, err = client.Compliance.Assessments.Create(ctx, &svc.CreateAssessmentRequest{Type: svc.AssessmentType("not-a-type"), Jurisdiction: "eu/de"})
	var invalid *svc.ValidationFailedError
	if !errors.As(err, &invalid) {
		t.Fatalf("want *ValidationFailedError, got %T %v", err, err)
	}
	if invalid.Status != 422 || invalid.Code != svc.CodeValidationFailed || invalid.CorrelationID == "" || len(invalid.Details) == 0 {
		t.Fatalf("422 fields: %+v", invalid.APIError)
	}
	for _, d := range invalid.Details {
		fmt.Printf("detail %s %s\n", d.Field, d.Issue)
	}
	var conflict *svc.ConflictError
	if errors.As(err, &conflict) || errors.As(err, &notFound) {
		t.Fatal("a 422 matched another code's type")
	}

	// X-IOF-Tenant: the key's own tenant passes, another is a typed 403.
	if _, err := e2eClient(t, svc.WithTenant(env(t, "SVC_E2E_TENANT"))).Frameworks.List(ctx, nil); err != nil {
		t.Fatalf("own tenant: %v", err)
	}
	_, err = e2eClient(t, svc.WithTenant("ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R")).Frameworks.List(ctx, nil)
	var forbidden *svc.ForbiddenError
	if !errors.As(err, &forbidden) || forbidden.Status != 403 {
		t.Fatalf("another tenant: want *ForbiddenError, got %T %v", err, err)
	}
	fmt.Printf("forbidden %d %s\n", forbidden.Status, forbidden.Code)
}

func TestE2ERateLimitRetry(t *testing.T) {
	ctx := context.Background()
	limit, _ := strconv.Atoi(env(t, "SVC_E2E_RATE_LIMIT"))

	// Without retries the 429 surfaces, typed, with its Retry-After and rate-limit headers.
	noRetry := e2eClient(t, svc.WithMaxRetries(0))
	var limited *svc.RateLimitedError
	for i := 0; i < 10*limit && limited == nil; i++ {
		_, err := noRetry.Frameworks.List(ctx, nil)
		if err != nil && !errors.As(err, &limited) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if limited == nil {
		t.Fatalf("no 429 in %d calls at a limit of %d/s", 10*limit, limit)
	}
	if limited.Status != 429 || limited.RetryAfter <= 0 || limited.RateLimit.Limit != limit || limited.RateLimit.Remaining != 0 {
		t.Fatalf("429 fields: status %d retry-after %v rate limit %+v", limited.Status, limited.RetryAfter, limited.RateLimit)
	}
	fmt.Printf("limited retry-after %s limit %d\n", limited.RetryAfter, limited.RateLimit.Limit)

	// With retries every call succeeds; the ones that met the limit waited for Retry-After.
	client := e2eClient(t, svc.WithMaxRetries(3))
	retried := 0
	for i := 0; i < 2*limit+1; i++ {
		var res svc.Response
		start := time.Now()
		if _, err := client.Frameworks.List(ctx, nil, svc.WithResponse(&res)); err != nil {
			t.Fatalf("call %d with retries: %v", i, err)
		}
		elapsed := time.Since(start)
		if res.StatusCode != 200 {
			t.Fatalf("call %d: status %d", i, res.StatusCode)
		}
		if res.Attempts > 1 {
			retried++
			fmt.Printf("retried attempts %d waited %dms\n", res.Attempts, elapsed.Milliseconds())
			if elapsed < 500*time.Millisecond {
				t.Errorf("a retry after 429 came back in %v: Retry-After not honoured", elapsed)
			}
		}
	}
	if retried == 0 {
		t.Fatal("no call met the limit: nothing was retried")
	}
}

func TestE2EIdempotentRetry(t *testing.T) {
	client := e2eClient(t, svc.WithBaseURL(env(t, "SVC_E2E_PROXY_URL")))
	var res svc.Response
	asm, err := client.Compliance.Assessments.Create(context.Background(), &svc.CreateAssessmentRequest{
		Type: svc.AssessmentTypeDpia, SystemID: env(t, "SVC_E2E_SYSTEM"), Jurisdiction: "eu/de",
	}, svc.WithResponse(&res))
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || !res.IdempotentReplayed || res.StatusCode != 201 {
		t.Fatalf("want a second attempt answered by a replay, got attempts %d replayed %t status %d", res.Attempts, res.IdempotentReplayed, res.StatusCode)
	}
	fmt.Printf("created %s attempts %d replayed %t\n", asm.ID, res.Attempts, res.IdempotentReplayed)
}

func TestE2EReportPDF(t *testing.T) {
	client := e2eClient(t)
	ctx := context.Background()
	report, err := client.Reporting.Generate(ctx, &svc.GenerateReportRequest{Template: "regulator", SystemID: svc.Ptr(env(t, "SVC_E2E_SYSTEM"))})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(45 * time.Second)
	for report.Status == svc.ReportStatusRendering {
		if time.Now().After(deadline) {
			t.Fatalf("report %s still rendering", report.ID)
		}
		time.Sleep(200 * time.Millisecond)
		if report, err = client.Reporting.Get(ctx, report.ID); err != nil {
			t.Fatal(err)
		}
	}
	file, err := client.Reporting.Export(ctx, report.ID)
	if err != nil {
		t.Fatal(err)
	}
	if file.StatusCode != 200 || file.ContentType != "application/pdf" || !strings.HasPrefix(string(file.Data), "%PDF-") || !strings.HasSuffix(file.Filename, ".pdf") {
		t.Fatalf("export: status %d type %q filename %q head %q", file.StatusCode, file.ContentType, file.Filename, string(file.Data[:min(16, len(file.Data))]))
	}
	if report.SizeBytes != nil && int64(len(file.Data)) != *report.SizeBytes {
		t.Errorf("size %d, report says %d", len(file.Data), *report.SizeBytes)
	}
	fmt.Printf("pdf %s %d bytes %s\n", report.ID, len(file.Data), file.Filename)
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// TestE2EDecodeEveryList calls every list method of the client (no path parameter) once and
// decodes its first page: the generated types must read what the server sends.
func TestE2EDecodeEveryList(t *testing.T) {
	client := e2eClient(t)
	ctx := reflect.ValueOf(context.Background())
	var names []string
	methods := map[string]reflect.Value{}
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		for i := 0; i < v.NumMethod(); i++ {
			m := v.Method(i)
			mt := m.Type()
			if mt.NumIn() != 3 || !mt.IsVariadic() || mt.In(1).Kind() != reflect.Pointer || mt.In(1).Elem().Kind() != reflect.Struct || mt.NumOut() != 2 {
				continue
			}
			if _, ok := mt.In(1).Elem().FieldByName("Cursor"); !ok || !strings.HasPrefix(mt.Out(0).String(), "*svc.Page[") {
				continue
			}
			name := prefix + v.Type().Method(i).Name
			names = append(names, name)
			methods[name] = m
		}
		e := v.Elem()
		for i := 0; i < e.NumField(); i++ {
			f := e.Type().Field(i)
			if f.IsExported() && f.Type.Kind() == reflect.Pointer && strings.HasSuffix(f.Type.Elem().Name(), "Service") {
				walk(prefix+f.Name+".", e.Field(i))
			}
		}
	}
	root := reflect.ValueOf(client).Elem()
	for i := 0; i < root.NumField(); i++ {
		if root.Type().Field(i).Anonymous {
			services := root.Field(i)
			for j := 0; j < services.NumField(); j++ {
				walk(services.Type().Field(j).Name+".", services.Field(j))
			}
		}
	}
	sort.Strings(names)
	decoded, refused := 0, 0
	for _, name := range names {
		m := methods[name]
		out := m.Call([]reflect.Value{ctx, reflect.Zero(m.Type().In(1))})
		err, _ := out[1].Interface().(error)
		var apiErr *svc.APIError
		switch {
		case err == nil:
			decoded++
		case errors.As(err, &apiErr) && apiErr.Status < 500:
			refused++ // a route this tenant may not call, or one that needs a filter: still typed
			fmt.Printf("refused %s %d %s\n", name, apiErr.Status, apiErr.Code)
		default:
			t.Errorf("%s: %v", name, err)
		}
	}
	fmt.Printf("lists %d decoded %d refused %d\n", len(names), decoded, refused)
	if len(names) < 100 || decoded < len(names)*3/4 {
		t.Fatalf("%d list methods, %d decoded", len(names), decoded)
	}
}
