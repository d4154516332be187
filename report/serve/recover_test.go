package serve

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolPanicIsToolError: the SDK does not recover a panic in a tool
// handler (it would end the process and every session); addTool answers it
// as a tool error, and the server answers the next call. An answer over
// addTool's bound is a tool error too.
func TestToolPanicIsToolError(t *testing.T) {
	m := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	type in struct {
		Boom bool `json:"boom,omitempty"`
		Big  bool `json:"big,omitempty"`
	}
	type out struct {
		OK   bool   `json:"ok"`
		Text string `json:"text,omitempty"`
	}
	addTool(m, 1000, &mcp.Tool{Name: "boom"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
		if a.Boom {
			var p *struct{ x int }
			_ = p.x // nil dereference
		}
		if a.Big {
			return nil, out{OK: true, Text: strings.Repeat("x", 2000)}, nil
		}
		return nil, out{OK: true}, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := m.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{"boom": true}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(text, "boom tool: panic: runtime error") {
		t.Errorf("a panicking handler: IsError %v, %q", res.IsError, text)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("the call after a panic: %v %+v", err, res)
	}
	// An answer over the bound is a tool error that says to narrow it.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{"big": true}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, "narrow the question") {
		t.Errorf("an answer over the bound: IsError %v, %q", res.IsError, text)
	}
}
