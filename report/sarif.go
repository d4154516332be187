package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// SARIFSchemaURI is the $schema of the SARIF logs WriteSARIF writes: the
// OASIS SARIF 2.1.0 schema (errata 01).
const SARIFSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// SARIFGatherBase is the uriBaseId every physical location of a SARIF log
// is relative to: the gather as the report cites it (Evidence.Path).
const SARIFGatherBase = "GATHER"

// SARIFFingerprintKey is the partialFingerprints key of a result: the hex
// SHA-256 of the finding's rule id, subject and container (identityKey),
// the identity a comparison of two gathers follows.
const SARIFFingerprintKey = "mgtriageFindingIdentity/v1"

// sarifRelatedText bounds the message of a related location (an evidence
// line) in runes.
const sarifRelatedText = 500

// WriteSARIF writes r as one SARIF 2.1.0 log (indented JSON and a newline,
// hidden controls escaped as WriteJSON does) with one run:
//
//   - tool.driver names mgtriage and its version, the rule table in its
//     properties, and in rules one reportingDescriptor per rule that fired:
//     its title, docs links (helpUri is the first), its remediation when
//     every finding of the rule has the same, its default level;
//   - one result per finding, in the report's order: ruleId and ruleIndex,
//     level from the severity (critical and high: error; medium: warning;
//     low and info: note), the hint as message, the first evidence line as
//     location with the finding's objects as logical locations, every other
//     evidence line as related location (uri relative to SARIFGatherBase,
//     region.startLine when the line is known), and partialFingerprints
//     [SARIFFingerprintKey];
//   - the gather (collection time, input with its SHA-256, cluster
//     version) in the run's properties, the run ID in automationDetails.id
//     ("mgtriage/<run id>"), and one invocation whose notifications say
//     when the input was not read whole.
//
// A run without findings has "results": []. Every text is written as text,
// never as Markdown: the strings come from the gather. Like every writer it
// reads only r: render it from a redacted report to redact it.
func WriteSARIF(w io.Writer, r *Report) error {
	r.Normalize()
	log := sarif.NewReport()
	log.Schema = SARIFSchemaURI
	log.AddRun(sarifRun(r))
	raw, err := json.Marshal(log)
	if err != nil {
		return err
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	return writeIndentedJSON(w, withoutSARIFDefaults(doc, ""))
}

// sarifDefaultKeys are the integer properties whose SARIF 2.1.0 default is
// -1 ("not given"): the SARIF library writes them out, and a -1 says
// nothing a reader does not assume.
var sarifDefaultKeys = map[string]bool{"index": true, "parentIndex": true, "id": true, "byteOffset": true, "charOffset": true, "rank": true}

// withoutSARIFDefaults drops from a SARIF log (decoded JSON, numbers as
// json.Number) what the specification says is the same as absent: empty
// arrays and objects (but a run's "results", which says that nothing was
// found, and "runs"), the -1 defaults of sarifDefaultKeys, and
// newlineSequences equal to its default ["\r\n", "\n"]; the SARIF library
// writes them all, tripling the file.
func withoutSARIFDefaults(v any, key string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			x = withoutSARIFDefaults(x, k)
			t[k] = x
			switch y := x.(type) {
			case []any:
				if len(y) == 0 && k != "results" && k != "runs" {
					delete(t, k)
				}
			case map[string]any:
				if len(y) == 0 {
					delete(t, k)
				}
			case json.Number:
				if sarifDefaultKeys[k] && y == "-1" {
					delete(t, k)
				}
			}
			if k == "newlineSequences" && fmt.Sprint(x) == "[\r\n \n]" {
				delete(t, k)
			}
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = withoutSARIFDefaults(x, key)
		}
		return t
	}
	return v
}

func sarifRun(r *Report) *sarif.Run {
	run := sarif.NewRun()
	driver := sarif.NewToolComponent().WithName(r.Tool.Name).WithFullName("mgtriage, an offline analyzer of OpenShift must-gathers")
	if driver.Name == nil || *driver.Name == "" {
		driver.WithName("mgtriage")
	}
	if r.Tool.Version != "" {
		driver.WithVersion(r.Tool.Version)
	}
	driver.WithProperties(sarif.NewPropertyBag().Add("ruleTable", r.Rules))
	run.Tool = sarif.NewTool().WithDriver(driver)
	if id := r.Run.RunID(); id != "" {
		run.AutomationDetails = sarif.NewRunAutomationDetails().WithID("mgtriage/" + id)
	}
	base := *sarif.NewArtifactLocation()
	base.Description = sarif.NewTextMessage(sarifGatherText(r.Gather))
	run.OriginalUriBaseIds = map[string]sarif.ArtifactLocation{SARIFGatherBase: base}
	run.Properties = sarifGatherProperties(r)
	run.AddInvocation(sarifInvocation(r.Gather))

	index := map[string]int{}
	for _, f := range r.Findings {
		if _, ok := index[f.RuleID]; !ok {
			index[f.RuleID] = len(driver.Rules)
			driver.AddRule(sarifRule(f, r.Findings))
		}
	}
	for _, f := range r.Findings {
		run.AddResult(sarifResult(f, index[f.RuleID]))
	}
	return run
}

// sarifLevel is the SARIF level of a severity; an unknown one is a warning.
func sarifLevel(severity string) string {
	switch severity {
	case SeverityCritical, SeverityHigh:
		return sarif.LevelError
	case SeverityLow, SeverityInfo:
		return sarif.LevelNote
	}
	return sarif.LevelWarning
}

// sarifRule describes the rule of f, whose findings are among all.
func sarifRule(f Finding, all []Finding) *sarif.ReportingDescriptor {
	rule := sarif.NewRule(f.RuleID)
	title := ClipLine(f.Title, 300)
	if title == "" {
		title = f.RuleID
	}
	rule.WithShortDescription(sarif.NewMultiformatMessageString().WithText(title))
	var docs []string
	for _, d := range f.Docs {
		if webURL(d) {
			docs = append(docs, d)
		}
	}
	help := []string{title + "."}
	same := true
	for _, o := range all {
		if o.RuleID == f.RuleID && !slices.Equal(o.Remediation, f.Remediation) {
			same = false
			break
		}
	}
	if same && len(f.Remediation) > 0 {
		help = append(help, "", "Remediation:")
		for _, s := range f.Remediation {
			help = append(help, "- "+cleanText(s))
		}
	} else if len(f.Remediation) > 0 {
		help = append(help, "", "Remediation: each result lists its own steps (properties.remediation).")
	}
	if len(docs) > 0 {
		help = append(help, "", "Documentation:")
		for _, d := range docs {
			help = append(help, "- "+d)
		}
		rule.WithHelpURI(docs[0])
	}
	help = append(help, "", "Rule "+f.RuleID+" version "+itoa(f.RuleVersion)+"; 'analyze rules show "+f.RuleID+"' prints it.")
	rule.WithHelp(sarif.NewMultiformatMessageString().WithText(strings.Join(help, "\n")))
	rule.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(f.Severity)))
	props := sarif.NewPropertyBag().Add("ruleVersion", f.RuleVersion).Add("severity", f.Severity)
	if f.Category != "" {
		props.Add("category", f.Category)
		props.AddTag(f.Category)
	}
	rule.WithProperties(props)
	return rule
}

// webURL reports whether s is an absolute http(s) URL, the only docs links
// written as helpUri or in help.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && !strings.ContainsAny(s, " \t\r\n")
}

// sarifResult is the result of finding f, whose rule is driver.rules[ruleIndex].
func sarifResult(f Finding, ruleIndex int) *sarif.Result {
	res := sarif.NewRuleResult(f.RuleID).WithRuleIndex(ruleIndex).WithLevel(sarifLevel(f.Severity))
	msg := cleanText(f.Hint)
	if strings.TrimSpace(msg) == "" {
		msg = cleanText(f.Title)
	}
	if strings.TrimSpace(msg) == "" {
		msg = f.RuleID
	}
	res.WithMessage(sarif.NewTextMessage(msg))

	primary := sarif.NewLocation()
	for _, o := range f.Objects {
		primary.AddLogicalLocation(sarifObject(o))
	}
	seen := map[string]bool{}
	related := []*sarif.Location{}
	for _, e := range f.Evidence {
		key := e.Path + "\x00" + itoa(e.Line)
		if e.Path == "" || seen[key] {
			continue
		}
		seen[key] = true
		if primary.PhysicalLocation == nil {
			primary.WithPhysicalLocation(sarifPhysical(e))
			continue
		}
		loc := sarif.NewLocation().WithID(len(related) + 1).WithPhysicalLocation(sarifPhysical(e))
		loc.WithMessage(sarif.NewTextMessage(e.Kind + ": " + orNone(ClipLine(e.Text, sarifRelatedText))))
		related = append(related, loc)
	}
	if primary.PhysicalLocation != nil || len(primary.LogicalLocations) > 0 {
		res.AddLocation(primary)
	}
	res.WithRelatedLocations(related)

	sum := sha256.Sum256([]byte(identityKey(f.RuleID, findingSubject(f), findingContainer(f))))
	res.WithPartialFingerprints(map[string]string{SARIFFingerprintKey: hex.EncodeToString(sum[:])})

	props := sarif.NewPropertyBag().Add("severity", f.Severity).Add("subject", findingSubject(f)).Add("remediation", f.Remediation)
	if f.Category != "" {
		props.Add("category", f.Category)
	}
	if f.GroupedBy != "" {
		props.Add("groupedBy", f.GroupedBy)
	}
	if len(f.Missing) > 0 {
		props.Add("missing", f.Missing)
	}
	if f.Signature != nil {
		props.Add("signature", f.Signature.ID)
	}
	if len(f.AlsoMatched) > 0 {
		props.Add("alsoMatched", f.AlsoMatched)
	}
	res.WithProperties(props)
	return res
}

// findingSubject is f.Subject, or for a report of an older version
// (without subjects) its first object as Kind/namespace/name ("pod/ns/name"
// for a pod, as Store.PodIdentity names a pod with a stable name).
func findingSubject(f Finding) string {
	if f.Subject != "" || len(f.Objects) == 0 {
		return f.Subject
	}
	o := f.Objects[0]
	kind := o.Kind
	if strings.HasPrefix(kind, "Pod") {
		kind = "pod"
	}
	return kind + "/" + objName(o.Namespace, o.Name)
}

// findingContainer is the container f is about: that of its first object
// (the finding's pod), as SnapFinding.Container.
func findingContainer(f Finding) string {
	if len(f.Objects) == 0 {
		return ""
	}
	return f.Objects[0].Container
}

// sarifObject is a Kubernetes object as a logical location: its name, and
// "Kind/namespace/name" (with "/container" when the finding names one) as
// fully qualified name, kind "resource".
func sarifObject(o Object) *sarif.LogicalLocation {
	fqn := o.Kind + "/" + objName(o.Namespace, o.Name)
	if o.Container != "" {
		fqn += "/" + o.Container
	}
	l := sarif.NewLogicalLocation().WithName(o.Name).WithFullyQualifiedName(fqn).WithKind("resource")
	props := sarif.NewPropertyBag().Add("kind", o.Kind)
	if o.Namespace != "" {
		props.Add("namespace", o.Namespace)
	}
	if o.Container != "" {
		props.Add("container", o.Container)
	}
	if o.Node != "" {
		props.Add("node", o.Node)
	}
	return l.WithProperties(props)
}

// sarifPhysical is the physical location of an evidence line: its path as
// a URI reference relative to SARIFGatherBase (each segment
// percent-encoded), and its line when known (0: no region).
func sarifPhysical(e Evidence) *sarif.PhysicalLocation {
	al := sarif.NewArtifactLocation().WithURI(pathURI(e.Path)).WithURIBaseID(SARIFGatherBase)
	pl := sarif.NewPhysicalLocation().WithArtifactLocation(al)
	if e.Line > 0 {
		pl.WithRegion(sarif.NewRegion().WithStartLine(e.Line))
	}
	return pl
}

// pathURI is the relative URI reference of a cited path: "a b/c#d" →
// "a%20b/c%23d"; a first segment holding ':' is written after "./" so it
// is not read as a scheme.
func pathURI(p string) string {
	return (&url.URL{Path: p}).String()
}

// sarifGatherText describes the base of every location: the input the
// report was made from.
func sarifGatherText(g Gather) string {
	in := "the input"
	if g.Input != nil && g.Input.Name != "" {
		in = ClipLine(g.Input.Name, 300)
		switch g.Input.Kind {
		case "archive":
			in = "the archive " + in
		case "folder":
			in = "the folder " + in
		}
	}
	return "The gather read from " + in + "; paths are relative to it as the report cites them (with the image folder left out when the gather has one)."
}

// sarifGatherProperties describes the gather and the run in the run's
// property bag: collectedAt and finishedAt (RFC 3339, UTC), input (name,
// kind, size, sha256), clusterVersion, kubernetesVersion, distribution,
// platform, clusterID, the report's runId and schema.
func sarifGatherProperties(r *Report) *sarif.PropertyBag {
	g := r.Gather
	p := sarif.NewPropertyBag()
	if g.CollectedAt != nil {
		p.Add("collectedAt", g.CollectedAt.UTC().Format(time.RFC3339Nano))
	}
	if g.FinishedAt != nil {
		p.Add("finishedAt", g.FinishedAt.UTC().Format(time.RFC3339Nano))
	}
	if g.Input != nil {
		p.Add("input", g.Input)
	}
	for k, v := range map[string]string{"clusterVersion": g.ClusterVersion, "kubernetesVersion": g.KubernetesVersion,
		"distribution": g.Distribution, "platform": g.Platform, "clusterID": g.ClusterID} {
		if v != "" {
			p.Add(k, v)
		}
	}
	if id := r.Run.RunID(); id != "" {
		p.Add("runId", id)
	}
	p.Add("reportSchema", itoa(r.SchemaVersion)+"."+itoa(r.SchemaMinor))
	return p
}

// sarifInvocation is the run's one invocation: it succeeded (the reports
// were written); a warning notification says when the input was not read
// whole, holds two clusters, or had files that could not be read.
func sarifInvocation(g Gather) *sarif.Invocation {
	inv := sarif.NewInvocation().WithExecutionSuccessful(true)
	note := func(text string) {
		n := sarif.NewNotification().WithLevel(sarif.LevelWarning).WithMessage(sarif.NewTextMessage(ClipLine(text, 2000)))
		inv.AddToolExecutionNotification(n)
	}
	if g.Incomplete != "" {
		note("The input was not read whole: " + g.Incomplete)
	}
	for _, f := range g.Faults {
		note("A stream of the input is not whole: " + f.Stream + ": " + f.Error)
	}
	if g.Mixed != "" {
		note("The gather holds two clusters: " + g.Mixed)
	}
	return inv
}
