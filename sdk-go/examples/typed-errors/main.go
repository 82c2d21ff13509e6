// Typed errors: every non-2xx answer is an error of its code's type (all of them wrap
// *svc.APIError); a 422 names each failing field.
//
//	SVC_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_test_... go run ./examples/typed-errors
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	svc "svc.example/sdk-go"
)

func main() {
	ctx := context.Background()
	client, err := svc.NewClient()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	// Client.Do sends what an untyped caller might: this body lacks systemId.
	body := map[string]any{"type": "fria", "jurisdiction": "eu/de"}
	err = client.Do(ctx, "POST", "/v1/compliance/assessments", nil, body, nil)

	var invalid *svc.ValidationFailedError
	var apiErr *svc.APIError
	switch {
	case errors.As(err, &invalid):
		fmt.Printf("status %d %s\n", invalid.Status, invalid.Code)
		for _, detail := range invalid.Details {
			fmt.Printf("field %s: %s\n", detail.Field, detail.Issue)
		}
		// Quote the correlation id in a support request: it finds the request in the server's logs.
		fmt.Printf("correlation %s\n", invalid.CorrelationID)
	case errors.As(err, &apiErr):
		fmt.Printf("unexpected %d %s\n", apiErr.Status, apiErr.Code)
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	// A typed method, an unknown id: *svc.NotFoundError.
	_, err = client.Compliance.Assessments.Get(ctx, "asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R")
	var notFound *svc.NotFoundError
	if errors.As(err, &notFound) {
		fmt.Printf("status %d %s\n", notFound.Status, notFound.Code)
	}
}
