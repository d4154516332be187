package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/mgtriage/mgtriage/rules/pack"
	"github.com/spf13/cobra"
)

func newRulesCmd(io IOStreams) *cobra.Command {
	var rulesPaths []string
	var trust []string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List, show, validate and explain the rule table",
	}
	cmd.PersistentFlags().StringArrayVar(&rulesPaths, "rules", nil, rulesFlagHelp)
	cmd.PersistentFlags().StringArrayVar(&trust, "trust", nil, "a minisign public key file, or a folder of *.pub keys, that packs must be signed with (repeatable)")
	list := &cobra.Command{
		Use:   "list",
		Short: "List the rules in evaluation order",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := loadTable(io.ErrOut, rulesPaths, trust)
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
			t, err := loadTable(io.ErrOut, rulesPaths, trust)
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
		Short: "Check rule files (a file or folder) or a rule pack and print every error with file:line",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pack.IsPack(args[0]) {
				pk, err := applyPack(rules.Builtin(), args[0], trust)
				if err != nil {
					return err
				}
				warnings := rules.WarningsFiles(pk.RuleFiles())
				for _, w := range warnings {
					fmt.Fprintf(io.Out, "warning: %s\n", w.Error())
				}
				fmt.Fprintf(io.Out, "%s: valid pack %s %s (%s, %s)\n", args[0], pk.Name, pk.Version, count(len(pk.RuleFiles()), "rule file", "rule files"), count(len(warnings), "warning", "warnings"))
				return nil
			}
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
			t, err := loadTable(io.ErrOut, rulesPaths, trust)
			if err != nil {
				return err
			}
			_, err = io.Out.Write(rules.Reference(t))
			return err
		},
	}
	cmd.AddCommand(list, show, validate, docs, newRulesExplainCmd(io, &rulesPaths, &trust), newRulesTestCmd(io, &trust), newRulesPackCmd(io), newRulesManifestCmd(io))
	return cmd
}

// newRulesExplainCmd is `analyze rules explain RULE PATH [SUBJECT]`: it
// reads the gather at PATH as analyze does (loadGather, the table's needs,
// the same input limits) and prints rules.Explain's account of RULE.
func newRulesExplainCmd(io IOStreams, rulesPaths *[]string, trust *[]string) *cobra.Command {
	var lo loadOptions
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain RULE PATH [SUBJECT]",
		Short: "Say why a rule fired or not on each pod or node of a gather",
		Long: `explain evaluates the rule table over the gather at PATH exactly as analyze does and, for RULE,
lists the subjects it considered (pods, or nodes for node rules) and for each the step that
decided: the matcher and the state it read, the required join and what it lacked, an earlier rule
of the group, or the cause pattern with the evidence line it came closest to matching, the part of
the pattern that matched there and the part that did not. SUBJECT (a pod's namespace/name, or a
node's name) keeps that subject alone. --rules applies your rule files first, so a rule of yours
can be explained before you run it.`,
		Args: cobra.RangeArgs(2, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := lo.validate(); err != nil {
				return err
			}
			t, err := loadTable(io.ErrOut, *rulesPaths, *trust)
			if err != nil {
				return err
			}
			subject := ""
			if len(args) == 3 {
				subject = args[2]
			}
			// An unknown rule is said before the gather is read.
			if _, err := rules.Explain(t, emptyGather(), args[0], ""); err != nil {
				return usageError{err}
			}
			g, err := loadGather(cmd.Context(), io, args[1], lo, t.Needs(), nil)
			if err != nil {
				return err
			}
			e, err := rules.Explain(t, g, args[0], subject)
			if err != nil {
				return usageError{err}
			}
			if asJSON {
				enc := json.NewEncoder(io.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(e)
			}
			return e.WriteText(io.Out)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the explanation as JSON (the shape analyze serve's explain tool returns)")
	f.StringVar(&lo.MaxRead, "max-read", fmt.Sprintf("%dGiB", parser.DefaultMaxReadBytes>>30), "stop reading the input after this many bytes, counted decompressed")
	f.IntVar(&lo.MaxMembers, "max-members", parser.DefaultMaxMembers, "stop reading the input after this many files, folders and links")
	return cmd
}

// emptyGather is a gather with nothing in it, frozen.
func emptyGather() *model.Gather {
	g := &model.Gather{}
	g.Freeze()
	return g
}
