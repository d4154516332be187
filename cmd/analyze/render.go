package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/mgtriage/mgtriage/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxRenderInput bounds what render reads from --from: a report.json or
// diff.json is far smaller; anything larger is not one.
const maxRenderInput = 2 << 30

func newRenderCmd(io IOStreams) *cobra.Command {
	var from, format string
	var maxChars int
	var redact bool
	cmd := &cobra.Command{
		Use:   "render --from report.json|diff.json --format md|html|json|sarif",
		Short: "Re-render a saved report.json (or a diff.json of 'analyze diff') as Markdown, HTML, JSON or SARIF on stdout",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from == "" {
				return usageError{fmt.Errorf("--from is required")}
			}
			if !slices.Contains(knownFormats, format) {
				return usageError{fmt.Errorf("--format %q: choose md, html, json or sarif", format)}
			}
			if maxChars < 0 {
				return usageError{fmt.Errorf("--md-max-chars (or --md-max-kb) must be 0 or more")}
			}
			b, err := readRenderInput(from)
			if err != nil {
				return inputError{err}
			}
			var buf bytes.Buffer
			switch kind, why := report.JSONKind(b); kind {
			case report.KindReport:
				err = renderReport(&buf, from, b, format, maxChars, redact)
			case report.KindDiff:
				err = renderDiff(&buf, from, b, format, redact)
			default:
				return inputError{fmt.Errorf("%s is not a report of mgtriage: it is %s. render reads the report.json that 'analyze PATH' writes and the diff.json that 'analyze diff OLD NEW' writes", from, why)}
			}
			if err != nil {
				return err
			}
			_, err = io.Out.Write(buf.Bytes())
			return err
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "a report.json written by analyze, or a diff.json written by analyze diff")
	cmd.Flags().StringVar(&format, "format", "md", "md, html, json or sarif (a report.json only)")
	markdownBoundFlags(cmd.Flags(), &maxChars, "a report's Markdown", "; a diff's Markdown has none")
	cmd.Flags().BoolVar(&redact, "redact", false, "replace IP addresses, node and host names, the cluster's domains, name and ID, the input path, e-mail addresses and secrets by placeholders (report.json only)")
	return cmd
}

// readRenderInput reads the --from file, at most maxRenderInput bytes; what
// does not start with a JSON object ({ after blanks) is refused after its
// first bytes, so a device or a binary file is not read to its end.
func readRenderInput(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, statReason(err))
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(64 << 10)
	if t := bytes.TrimLeft(head, " \t\r\n"); len(t) > 0 && t[0] != '{' {
		return nil, fmt.Errorf("%s is not a report of mgtriage: it does not start with a JSON object. render reads the report.json that 'analyze PATH' writes and the diff.json that 'analyze diff OLD NEW' writes", path)
	}
	b, err := io.ReadAll(io.LimitReader(br, maxRenderInput+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(b) > maxRenderInput {
		return nil, fmt.Errorf("%s is over %d GiB: not a report of mgtriage", path, maxRenderInput>>30)
	}
	return b, nil
}

func renderReport(w io.Writer, from string, b []byte, format string, maxChars int, redact bool) error {
	r, err := report.ReadJSON(bytes.NewReader(b))
	if err != nil {
		return inputError{fmt.Errorf("%s looks like a report.json of analyze but cannot be read: %s", from, report.JSONErrorText(err))}
	}
	if redact {
		r, _ = report.Redact(r)
	}
	switch format {
	case "md":
		return report.WriteMarkdown(w, r, report.MarkdownOptions{MaxChars: maxChars})
	case "html":
		return report.WriteHTML(w, r)
	case "sarif":
		return report.WriteSARIF(w, r)
	}
	return report.WriteJSON(w, r)
}

// renderDiff renders a diff.json with the writers of analyze diff.
func renderDiff(w io.Writer, from string, b []byte, format string, redact bool) error {
	if redact {
		return usageError{errors.New("--redact: " + from + " is a diff.json of 'analyze diff', which render cannot redact; run 'analyze diff --redact OLD NEW' on the two gathers instead")}
	}
	if format == "sarif" {
		return usageError{errors.New("--format sarif: " + from + " is a diff.json of 'analyze diff'; SARIF is made of one analysis: render the report.json of either gather")}
	}
	d, err := report.ReadDiffJSON(bytes.NewReader(b))
	if err != nil {
		return inputError{fmt.Errorf("%s looks like a diff.json of 'analyze diff' but cannot be read: %s", from, report.JSONErrorText(err))}
	}
	switch format {
	case "md":
		return report.WriteDiffMarkdown(w, d)
	case "html":
		return report.WriteDiffHTML(w, d)
	}
	return report.WriteDiffJSON(w, d)
}

// markdownBoundFlags adds --md-max-chars, the bound of the Markdown named by
// what in characters (Unicode code points), default
// report.DefaultMarkdownMaxChars, and --md-max-kb, its older alias in KiB:
// N sets the bound to N×1024 characters. Of the two, the one given last
// counts. note ends the help text of --md-max-chars.
func markdownBoundFlags(f *pflag.FlagSet, chars *int, what, note string) {
	f.IntVar(chars, "md-max-chars", report.DefaultMarkdownMaxChars, "upper bound of "+what+" in characters (Unicode code points; 0: no bound"+note+")")
	f.Var(kbAlias{chars}, "md-max-kb", "alias of --md-max-chars in KiB: N sets the bound to N×1024 characters")
}

// kbAlias is --md-max-kb: it sets the bound in characters from a count of KiB.
type kbAlias struct{ chars *int }

func (k kbAlias) String() string { return "" }
func (k kbAlias) Type() string   { return "int" }
func (k kbAlias) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a whole number", s)
	}
	if n > math.MaxInt/1024 {
		return fmt.Errorf("%d KiB is more than this system counts", n)
	}
	if n < 0 {
		*k.chars = -1 // refused by the bound check, which names both flags
		return nil
	}
	*k.chars = n * 1024
	return nil
}
