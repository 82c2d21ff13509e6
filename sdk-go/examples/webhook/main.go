// Webhook receiver on net/http: read the raw body, verify it, answer 204 or 400. Verification
// signs the body exactly as sent, so read it whole and never re-encode it first.
//
//	SVC_WEBHOOK_SECRET=whsec_... PORT=3000 go run ./examples/webhook
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	svc "svc.example/sdk-go"
)

func main() {
	secret := os.Getenv("SVC_WEBHOOK_SECRET")
	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}

	http.HandleFunc("/hooks/svc", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		payload, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		event, err := svc.VerifyWebhook(payload, r.Header.Get(svc.SignatureHeader), secret)
		var refused *svc.WebhookVerificationError
		if errors.As(err, &refused) {
			fmt.Printf("refused %s\n", refused.Reason)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": refused.Reason})
			return
		}
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		// Acknowledge first: slow processing would make the dispatcher retry the delivery.
		w.WriteHeader(http.StatusNoContent)
		fmt.Printf("received %s %s\n", event.Type, event.ID)
	})

	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("listening %d\n", listener.Addr().(*net.TCPAddr).Port)
	if err := http.Serve(listener, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
