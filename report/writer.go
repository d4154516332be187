package report

import "io"

// A Writer renders a Report in one format. WriteJSON, WriteHTML and
// WriteSARIF are Writers as they are; MarkdownWriter and TerminalWriter
// bind their options.
type Writer func(w io.Writer, r *Report) error

// MarkdownWriter returns a Writer that calls WriteMarkdown with opt.
func MarkdownWriter(opt MarkdownOptions) Writer {
	return func(w io.Writer, r *Report) error { return WriteMarkdown(w, r, opt) }
}

// TerminalWriter returns a Writer that calls WriteTerminal with opt.
func TerminalWriter(opt TerminalOptions) Writer {
	return func(w io.Writer, r *Report) error { return WriteTerminal(w, r, opt) }
}
