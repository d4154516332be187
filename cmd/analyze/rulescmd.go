package main

import (
	"fmt"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/spf13/cobra"
)

func newRulesCmd(io IOStreams) *cobra.Command {
	var rulesPath string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List, show and validate the rule table",
	}
	cmd.PersistentFlags().StringVar(&rulesPath, "rules", "", "a rule file or folder applied over the built-in rules")
	list := &cobra.Command{
		Use:   "list",
		Short: "List the rules in evaluation order",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := loadTable(rulesPath)
			if err != nil {
				return err
			}
			tw := table.NewWriter()
			tw.SetStyle(table.StyleLight)
			tw.SetTitle(fmt.Sprintf("rule table %s (schema %d), %s", t.Version, t.SchemaVersion, count(len(t.Rules), "rule", "rules")))
			tw.AppendHeader(table.Row{"ID", "VERSION", "SEVERITY", "CATEGORY", "TITLE"})
			for _, r := range t.Rules {
				tw.AppendRow(table.Row{r.ID, r.Version, r.Severity, r.Category, r.Title})
			}
			fmt.Fprintln(io.Out, tw.Render())
			return nil
		},
	}
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show one rule as YAML",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := loadTable(rulesPath)
			if err != nil {
				return err
			}
			for _, r := range t.Rules {
				if r.ID == args[0] {
					out, err := rules.Marshal(r)
					if err != nil {
						return err
					}
					fmt.Fprintf(io.Out, "# %s:%d\n%s", r.File, r.Line, out)
					return nil
				}
			}
			return usageError{fmt.Errorf("no rule %q; see 'analyze rules list'", args[0])}
		},
	}
	validate := &cobra.Command{
		Use:   "validate PATH",
		Short: "Check rule files (a file or folder) and print every error with file:line",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			errs := rules.Validate(args[0])
			if len(errs) == 0 {
				warnings := rules.Warnings(args[0])
				for _, w := range warnings {
					fmt.Fprintf(io.Out, "warning: %s\n", w.Error())
				}
				fmt.Fprintf(io.Out, "%s: valid (%s)\n", args[0], count(len(warnings), "warning", "warnings"))
				return nil
			}
			var b strings.Builder
			for _, e := range errs {
				b.WriteString(e.Error() + "\n")
			}
			fmt.Fprint(io.Out, b.String())
			return usageError{fmt.Errorf("%s in %s", count(len(errs), "error", "errors"), args[0])}
		},
	}
	docs := &cobra.Command{
		Use:   "docs",
		Short: "Print the rule reference (docs/rules.md) generated from the table",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := loadTable(rulesPath)
			if err != nil {
				return err
			}
			_, err = io.Out.Write(rules.Reference(t))
			return err
		},
	}
	cmd.AddCommand(list, show, validate, docs)
	return cmd
}
