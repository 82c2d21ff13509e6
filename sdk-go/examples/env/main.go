// Env: the client takes its base URL and key from SVC_URL and SVC_API_KEY when no option gives
// them, as every example here does.
//
//	SVC_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_test_... go run ./examples/env
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	svc "svc.example/sdk-go"
)

func main() {
	client, err := svc.NewClient()
	if errors.Is(err, svc.ErrNoAPIKey) {
		fmt.Fprintln(os.Stderr, "Set SVC_API_KEY (and SVC_URL when the API is not on http://127.0.0.1:8080).")
		os.Exit(1)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("url %s\n", client.BaseURL())
	var res svc.Response
	page, err := client.Frameworks.List(context.Background(), nil, svc.WithResponse(&res))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("frameworks %d\n", len(page.Data))
	fmt.Printf("rate limit %d, remaining %d\n", res.RateLimit.Limit, res.RateLimit.Remaining)
}
