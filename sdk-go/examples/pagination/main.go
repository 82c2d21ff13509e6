// Pagination: the AutoPaging iterator follows the cursors, so the loop sees every obligation,
// one page at a time.
//
//	SVC_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_test_... go run ./examples/pagination
package main

import (
	"context"
	"fmt"
	"os"

	svc "svc.example/sdk-go"
)

func main() {
	ctx := context.Background()
	client, err := svc.NewClient()
	check(err)
	_, err = client.Frameworks.Activate(ctx, "eu-ai-act", nil)
	check(err)

	count := 0
	it := client.Compliance.Obligations.ListAutoPaging(ctx, &svc.ComplianceObligationsListParams{Limit: svc.Ptr(int64(50))})
	for it.Next() {
		if count < 3 {
			fmt.Printf("obligation %s\n", it.Current().ID)
		}
		count++
	}
	check(it.Err())
	fmt.Printf("total %d\n", count)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
