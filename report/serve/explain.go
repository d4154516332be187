package serve

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addExplain registers the explain tool (rules.Explain) once the rules
// package offers it.
func (s *Server) addExplain(*mcp.Server, func(string) *mcp.ToolAnnotations) {}
