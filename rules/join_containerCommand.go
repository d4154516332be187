package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// execProgramRe finds the program in the runtime's message for a program it
// could not exec.
var execProgramRe = mustLitRegexp(`exec: "([^"\\]{1,200})": (?:executable file not found|stat |no such file)`)

// shells are the programs a `sh -c` command needs from the image.
var shells = map[string]bool{"sh": true, "bash": true, "ash": true, "dash": true, "zsh": true, "ksh": true}

// joinContainerCommand runs the containerCommand join for one pod and hit
// (doc and reads: joinRegistry).
func joinContainerCommand(c *evalContext, p *model.Pod, h *hit) joinResult {
	program := h.Vars["Program"]
	for _, e := range h.Evidence {
		if program != "" {
			break
		}
		// Run for a rule: the program from the runtime's message.
		if m := execProgramRe.FindStringSubmatch(strings.ReplaceAll(e.Text, `\"`, `"`)); m != nil {
			program = m[1]
		}
	}
	if program == "" {
		return joinResult{}
	}
	spec, field := containerSpec(p, h.Container)
	if spec == nil {
		return joinResult{}
	}
	base := path.Base(program)
	same := func(s string) bool { return s == program || path.Base(s) == base }
	var res joinResult
	switch {
	case len(spec.Command) > 0 && same(spec.Command[0]):
		res.Cause = fmt.Sprintf("The pod's own command names it: %s.command is %s.", field, quoteArgs(spec.Command, 4))
	case len(spec.Command) == 0 && len(spec.Args) > 0 && same(spec.Args[0]):
		res.Cause = fmt.Sprintf("The pod sets no command and %s.args starts with %s: the image has no entrypoint, so the runtime runs the first argument as the program.", field, quoteArgs(spec.Args, 4))
	case len(spec.Command) == 0 && len(spec.Args) == 0:
		res.Cause = fmt.Sprintf("The pod sets neither command nor args for %s: %s is the image's own entrypoint or CMD, so the image does not hold what it was built to run (a broken build, or not the image intended).", h.Container, program)
		res.Fix = fmt.Sprintf("Check the entrypoint and CMD of %s (its Dockerfile, or its configuration in the registry) and its tag; rebuild it or point the pod at the image intended.", spec.Image)
	default:
		return joinResult{}
	}
	res.Decided = true
	res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s: image %s, command %s, args %s", field, spec.Image, quoteArgs(spec.Command, 6), quoteArgs(spec.Args, 6)), field))
	switch {
	case shells[base]:
		res.Cause += fmt.Sprintf(" The command runs %s, and the image %s has no shell (distroless and scratch images hold only their program).", base, spec.Image)
		res.Fix = fmt.Sprintf("Run the program directly in the exec form (command: [\"/path/to/program\", ...] without %s -c), or use an image that has a shell.", base)
	case !strings.HasPrefix(program, "/") && strings.Contains(program, "/"):
		wd := "the image's working directory"
		if spec.WorkingDir != "" {
			wd = "the working directory " + spec.WorkingDir
		}
		res.Cause += fmt.Sprintf(" %s is a relative path, resolved against %s, where no such file is.", program, wd)
		if res.Fix == "" {
			res.Fix = fmt.Sprintf("Give the absolute path of the program inside %s (the WORKDIR and COPY lines of its Dockerfile show where it is).", spec.Image)
		}
	}
	if res.Fix == "" {
		res.Fix = fmt.Sprintf("Point the command at a program the image %s has (absolute path, or a name on its PATH), or use an image that has %s.", spec.Image, program)
	}
	return res
}

// containerSpec returns the spec of the pod's container name and its field
// path ("spec.containers[app]"), or nil.
func containerSpec(p *model.Pod, name string) (*corev1.Container, string) {
	for i := range p.Object.Spec.InitContainers {
		if p.Object.Spec.InitContainers[i].Name == name {
			return &p.Object.Spec.InitContainers[i], "spec.initContainers[" + name + "]"
		}
	}
	for i := range p.Object.Spec.Containers {
		if p.Object.Spec.Containers[i].Name == name {
			return &p.Object.Spec.Containers[i], "spec.containers[" + name + "]"
		}
	}
	return nil, ""
}

// quoteArgs writes a command line as a JSON-ish list, at most max items
// (each clipped).
func quoteArgs(args []string, max int) string {
	if len(args) == 0 {
		return "[]"
	}
	var out []string
	for i, a := range args {
		if i == max {
			out = append(out, fmt.Sprintf("… %d more", len(args)-max))
			break
		}
		out = append(out, fmt.Sprintf("%q", clip(a, 60)))
	}
	return "[" + strings.Join(out, ", ") + "]"
}
