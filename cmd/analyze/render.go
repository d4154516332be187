package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/mgtriage/mgtriage/report"
	"github.com/spf13/cobra"
)

func newRenderCmd(io IOStreams) *cobra.Command {
	var from, format string
	var maxKB int
	var redact bool
	cmd := &cobra.Command{
		Use:   "render --from report.json --format md|html",
		Short: "Re-render a saved report.json as Markdown or HTML on stdout",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from == "" {
				return usageError{fmt.Errorf("--from is required")}
			}
			if format != "md" && format != "html" && format != "json" {
				return usageError{fmt.Errorf("--format %q: choose md, html or json", format)}
			}
			if maxKB < 0 {
				return usageError{fmt.Errorf("--md-max-kb must be 0 or more")}
			}
			f, err := os.Open(from)
			if err != nil {
				return inputError{err}
			}
			defer f.Close()
			r, err := report.ReadJSON(f)
			if err != nil {
				return inputError{err}
			}
			if redact {
				r, _ = report.Redact(r)
			}
			var buf bytes.Buffer
			switch format {
			case "md":
				err = report.WriteMarkdown(&buf, r, report.MarkdownOptions{MaxKB: maxKB})
			case "html":
				err = report.WriteHTML(&buf, r)
			case "json":
				err = report.WriteJSON(&buf, r)
			default:
				return usageError{fmt.Errorf("--format %q: choose md, html or json", format)}
			}
			if err != nil {
				return err
			}
			_, err = io.Out.Write(buf.Bytes())
			return err
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "a report.json written by analyze")
	cmd.Flags().StringVar(&format, "format", "md", "md, html or json")
	cmd.Flags().IntVar(&maxKB, "md-max-kb", 60, "upper bound of the Markdown in KiB (0: no bound)")
	cmd.Flags().BoolVar(&redact, "redact", false, "replace IP addresses, node and host names, the cluster's domains, name and ID, the input path, e-mail addresses and secrets by placeholders")
	return cmd
}
