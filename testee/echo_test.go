package testee

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

// echoImpl answers hello, echoes test.echo, rejects test.reject and does
// not support anything else.
type echoImpl struct{}

const echoHello = `{"protocol":1,"implementation":"echo-testee 1.0","ops":["test.echo","test.reject"],"profiles":["lace-mark-bip340-standin"],"limits":{"lace.max_record_bytes":33620814}}`

func (echoImpl) Do(_ context.Context, req Request) (Response, error) {
	switch req.Op {
	case OpHello:
		return Response{Outcome: Accepted, Result: json.RawMessage(echoHello)}, nil
	case "test.echo":
		return Response{Outcome: Accepted, Result: echoResult(req.Op, req.Args, req.Input)}, nil
	case "test.reject":
		return Response{Outcome: Rejected, Code: "TEST_REJECT", Detail: "rejected as asked", Rule: "TEST-REJ-01"}, nil
	}
	return Response{Outcome: Unsupported}, nil
}

func (echoImpl) Close() error { return nil }

type echoed struct {
	Op    string          `json:"op"`
	Args  json.RawMessage `json:"args"`
	Input []byte          `json:"input"`
	PID   int             `json:"pid"`
}

func echoResult(op string, args json.RawMessage, input []byte) json.RawMessage {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	b, _ := json.Marshal(echoed{Op: op, Args: args, Input: input, PID: os.Getpid()})
	return b
}

// decodeEcho decodes an echo result.
func decodeEcho(t testing.TB, resp Response) echoed {
	t.Helper()
	var e echoed
	if err := json.Unmarshal(resp.Result, &e); err != nil {
		t.Fatalf("echo result %s: %v", resp.Result, err)
	}
	return e
}
