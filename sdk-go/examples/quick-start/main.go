// Quick start: create an assessment and list the framework dictionaries.
//
//	SVC_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_test_... go run ./examples/quick-start
package main

import (
	"context"
	"fmt"
	"os"

	svc "svc.example/sdk-go"
)

func main() {
	ctx := context.Background()
	client, err := svc.NewClient() // SVC_URL and SVC_API_KEY
	check(err)

	assessment, err := client.Compliance.Assessments.Create(ctx, &svc.CreateAssessmentRequest{
		Type:         svc.AssessmentTypeFria,
		SystemID:     "sys_credit_scoring_v2",
		Jurisdiction: "eu/de",
	})
	check(err)
	fmt.Printf("created %s (%s)\n", assessment.ID, assessment.Status)

	frameworks, err := client.Frameworks.List(ctx, nil)
	check(err)
	for _, framework := range frameworks.Data {
		fmt.Printf("framework %s\n", framework.ID)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
