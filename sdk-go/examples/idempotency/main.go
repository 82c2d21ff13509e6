// Idempotency: a retried POST with the same key (after a timeout, a crash, a redeploy) returns the
// first result instead of creating a second assessment. Without WithIdempotencyKey every POST
// still gets its own key, reused by the client's automatic retries.
//
//	SVC_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_test_... go run ./examples/idempotency
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
	key := svc.NewIdempotencyKey()
	body := &svc.CreateAssessmentRequest{Type: svc.AssessmentTypeFria, SystemID: "sys_credit_scoring_v2", Jurisdiction: "eu/de"}

	first, err := client.Compliance.Assessments.Create(ctx, body, svc.WithIdempotencyKey(key))
	check(err)
	var res svc.Response
	retry, err := client.Compliance.Assessments.Create(ctx, body, svc.WithIdempotencyKey(key), svc.WithResponse(&res))
	check(err)
	fmt.Printf("first %s\n", first.ID)
	fmt.Printf("retry %s\n", retry.ID)
	if first.ID == retry.ID {
		fmt.Println("same assessment")
	} else {
		fmt.Println("DIFFERENT assessments")
	}
	fmt.Printf("replayed %t\n", res.IdempotentReplayed)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
