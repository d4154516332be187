package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	certificatesv1 "k8s.io/api/certificates/v1"
)

// Install log bundles (openshift-install gather bootstrap) as subjects: one
// finding per bundle and stage at which the install stopped, citing the
// bootstrap journal lines that show where.

// installStage fires for each install log bundle that shows Stage:
//
//   - api-down: every resources/*.json is empty, the API never answered;
//   - api-wait: bootkube waited for the Kubernetes API although it answered
//     at some point (the API did come up, then stopped answering);
//   - etcd: etcd on the bootstrap node did not form or stay healthy;
//   - masters: no control-plane machine registered;
//   - csr: certificate signing requests left pending;
//   - release-image: the release image could not be pulled.
//
// None fires for a bundle whose journals show the bootstrap completed.
type installStage struct {
	Stage string `json:"stage" doc:"the install stage to report: api-down, api-wait, etcd, masters, csr or release-image"`
}

var installStages = []string{"api-down", "api-wait", "etcd", "masters", "csr", "release-image"}

func (m *installStage) validate() error {
	for _, s := range installStages {
		if s == m.Stage {
			return nil
		}
	}
	return fmt.Errorf("stage %q is not one of %s", m.Stage, strings.Join(installStages, ", "))
}

// maxInstallEvidence bounds the step lines cited per stage (the last ones:
// where the bootstrap stopped).
const maxInstallEvidence = 6

func (m *installStage) on() subjectKind { return onCluster }

func (m *installStage) match(c *evalContext, s subject) []hit {
	var out []hit
	for _, ib := range c.installs {
		if ib.Reached(model.StageComplete) {
			continue
		}
		if h, ok := m.matchBundle(c, ib); ok {
			name := strings.TrimSuffix(ib.Root, "/")
			if name == "" {
				name = "log-bundle"
			}
			o := &model.Object{Kind: model.Kind{Group: "install.openshift.io", Resource: "logbundles"}, Name: name, Source: model.Source{Path: ib.Root + "resources/"}}
			out = append(out, h.about(o, "LogBundle"))
		}
	}
	return out
}

func (m *installStage) matchBundle(c *evalContext, ib *model.InstallBundle) (hit, bool) {
	h := hit{Vars: Vars{}}
	steps := func(stages ...string) []model.InstallStep {
		var out []model.InstallStep
		for _, s := range ib.Steps {
			for _, st := range stages {
				if s.Stage == st {
					out = append(out, s)
				}
			}
		}
		return out
	}
	cite := func(ss []model.InstallStep) {
		if len(ss) > maxInstallEvidence {
			ss = ss[len(ss)-maxInstallEvidence:]
		}
		for _, s := range ss {
			h.Evidence = append(h.Evidence, Evidence{Source: s.Source, Kind: EvidenceNodeLog, Time: s.First, Count: s.Count, Text: s.Host + " " + s.Unit + ": " + s.Text})
		}
	}
	last := func(ss []model.InstallStep) {
		if len(ss) == 0 {
			return
		}
		l := ss[len(ss)-1]
		h.Vars["About"], h.Vars["Node"], h.Vars["Since"] = l.Text, l.Host, fmtTime(ss[0].First)
	}
	switch m.Stage {
	case "api-down":
		if len(ib.Resources) == 0 || ib.APIAnswered() {
			return h, false
		}
		h.Vars["Count"] = fmt.Sprint(len(ib.Empty))
		h.Evidence = append(h.Evidence, Evidence{Source: model.Source{Path: ib.Root + "resources/"}, Kind: EvidenceObject,
			Text: fmt.Sprintf("all %d files empty (%s): `oc get` on the bootstrap node never got an answer", len(ib.Empty), clipList(ib.Empty, 8))})
		ss := steps(model.StageAPIWait, model.StageEtcd, model.StageBootkube)
		last(steps(model.StageAPIWait))
		if h.Vars["About"] == "" {
			last(ss)
		}
		cite(ss)
		h.Evidence = append(h.Evidence, installContainerErrors(ib, "kube-apiserver", "etcd")...)
	case "api-wait":
		ss := steps(model.StageAPIWait)
		if len(ss) == 0 || !ib.APIAnswered() {
			return h, false
		}
		last(ss)
		cite(append(ss, steps(model.StageBootkube)...))
	case "etcd":
		ss := steps(model.StageEtcd)
		if len(ss) == 0 {
			return h, false
		}
		last(ss)
		cite(ss)
		h.Evidence = append(h.Evidence, installContainerErrors(ib, "etcd")...)
	case "masters":
		// The gather lists the masters through the API: with the API down
		// an empty list says nothing about them.
		ss := steps(model.StageMasters)
		if !ib.APIAnswered() || len(ss) == 0 && ib.MastersListed != 0 {
			return h, false
		}
		last(ss)
		if ib.MastersListed == 0 {
			h.Evidence = append(h.Evidence, Evidence{Source: model.Source{Path: ib.Root + "resources/masters.list"}, Kind: EvidenceObject, Text: "resources/masters.list: no node with the master role answered"})
		}
		h.Vars["Count"] = fmt.Sprint(len(ib.Masters))
		cite(ss)
	case "csr":
		pending := pendingCSRs(c)
		ss := steps(model.StageCSR)
		if len(pending) == 0 && len(ss) == 0 {
			return h, false
		}
		h.Vars["Count"] = fmt.Sprint(len(pending))
		for i, o := range pending {
			if i == maxInstallEvidence {
				break
			}
			h.Evidence = append(h.Evidence, objectEvidence(o, "no Approved or Denied condition: pending"))
		}
		last(ss)
		cite(ss)
	case "release-image":
		ss := steps(model.StageReleaseImage)
		if len(ss) == 0 {
			return h, false
		}
		last(ss)
		cite(ss)
	}
	return h, true
}

// pendingCSRs returns the gathered CSRs with neither an Approved nor a
// Denied condition.
func pendingCSRs(c *evalContext) []*model.Object {
	var out []*model.Object
	csrs, _ := c.store.List(model.CertificateSigningRequests, "")
	for _, o := range csrs {
		csr, ok := o.Typed.(*certificatesv1.CertificateSigningRequest)
		if !ok {
			continue
		}
		decided := false
		for _, cond := range csr.Status.Conditions {
			if cond.Type == certificatesv1.CertificateApproved || cond.Type == certificatesv1.CertificateDenied {
				decided = true
			}
		}
		if !decided {
			out = append(out, o)
		}
	}
	return out
}

// installErrorRe picks the lines of a container log that tell why it failed
// (etcd logs JSON with "level":"warn" for rejected TLS connections).
var installErrorRe = regexp.MustCompile(`(?i)x509|fatal|panic|error|refused|denied|timeout|deadline exceeded|no such host|^[EF]\d{4} `)

// installContainerErrors cites the error lines of the bundle's container
// logs whose name starts with one of names (the last three of each tail).
func installContainerErrors(ib *model.InstallBundle, names ...string) []Evidence {
	var ev []Evidence
	for _, ct := range ib.Containers {
		match := false
		for _, n := range names {
			match = match || ct.Name == n || strings.HasPrefix(ct.Name, n+"-")
		}
		if !match || ct.Log == nil {
			continue
		}
		var errs []model.LogLine
		tail, _ := ct.Log.Kept()
		for _, l := range tail {
			if installErrorRe.MatchString(l.Text) {
				errs = append(errs, l)
			}
		}
		if len(errs) > 3 {
			errs = errs[len(errs)-3:]
		}
		for _, l := range errs {
			ev = append(ev, Evidence{Source: model.Source{Path: ct.Log.Path(), Line: l.Line}, Kind: EvidenceLog, Time: l.Time, Text: ct.Host + " container " + ct.Name + ": " + l.Text})
		}
	}
	return ev
}

func clipList(l []string, n int) string {
	if len(l) <= n {
		return strings.Join(l, ", ")
	}
	return strings.Join(l[:n], ", ") + fmt.Sprintf(", … %d more", len(l)-n)
}

// reads names the kinds the matcher decodes (see Table.decodeKinds).
func (m *installStage) reads() []model.Kind {
	if m.Stage == "csr" {
		return []model.Kind{model.CertificateSigningRequests}
	}
	return nil
}
