package podstatus

import (
	"fmt"
	"regexp"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Kubelet crash back-off: the delay before restarting a container that
// exited starts at 10 s, doubles with each crash up to 5 min, and is reset when
// the container ran for 10 min without crashing.
const (
	BackOffInitial = 10 * time.Second
	BackOffMax     = 5 * time.Minute
	BackOffReset   = 10 * time.Minute
)

// BackOffDelay returns the kubelet's restart delay after the n-th consecutive
// crash (n ≥ 1): 10s, 20s, 40s, … capped at 5m. It returns 0 for n < 1.
func BackOffDelay(n int) time.Duration {
	if n < 1 {
		return 0
	}
	d := BackOffInitial
	for i := 1; i < n && d < BackOffMax; i++ {
		d *= 2
	}
	return min(d, BackOffMax)
}

var backOffMsgRe = regexp.MustCompile(`back-off (\d+(?:h\d+)?(?:m\d+)?(?:\.\d+)?(?:[hms]|ms)?(?:\d+(?:\.\d+)?s)?) restarting failed container`)

// ParseBackOffMessage reads the delay from a CrashLoopBackOff waiting message
// ("back-off 5m0s restarting failed container=app pod=..."); false when the
// message has none.
func ParseBackOffMessage(msg string) (time.Duration, bool) {
	m := backOffMsgRe.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	d, err := time.ParseDuration(m[1])
	if err != nil || d <= 0 {
		return 0, false
	}
	return d, true
}

// ExitMeaning explains an exit code (and signal, and termination reason) the
// way a support engineer reads it. It returns "" for an unknown code.
func ExitMeaning(exitCode, signal int32, reason string) string {
	switch {
	case reason == "OOMKilled":
		return "killed by the kernel OOM killer (memory limit reached)"
	case reason == "ContainerStatusUnknown":
		return "the kubelet lost track of the container (node problem or eviction); the exit code is a placeholder"
	case reason == "DeadlineExceeded":
		return "killed at the pod's activeDeadlineSeconds"
	}
	if signal == 0 && exitCode > 128 && exitCode < 160 {
		signal = exitCode - 128
	}
	switch signal {
	case 9:
		return "SIGKILL: killed from outside (OOM kill, failed liveness probe, or grace period expired)"
	case 15:
		return "SIGTERM: asked to stop (liveness probe failure, deletion or node shutdown) and exited on it"
	case 11:
		return "SIGSEGV: segmentation fault in the process"
	case 6:
		return "SIGABRT: the process aborted itself (assertion, runtime panic in native code)"
	case 2:
		return "SIGINT: interrupted"
	case 1:
		return "SIGHUP: hang-up"
	}
	switch exitCode {
	case 0:
		return "exited successfully"
	case 1:
		return "application error (generic failure reported by the process)"
	case 2:
		return "misuse of a shell builtin or invalid arguments"
	case 126:
		return "command found but not executable (permissions, wrong architecture)"
	case 127:
		return "command not found (the container's own command, or a program that a script it runs calls)"
	case 128:
		return "invalid exit argument"
	case 255:
		return "exit status out of range (often exit(-1))"
	}
	if signal != 0 {
		return fmt.Sprintf("terminated by signal %d", signal)
	}
	return ""
}

// Probe describes one probe of a container.
type Probe struct {
	Kind                string // startup, readiness, liveness
	Action              string // "http-get http://:8080/healthz", "tcp-socket :5432", "exec [cat /tmp/ready]", "grpc :9000"
	InitialDelaySeconds int32
	PeriodSeconds       int32
	TimeoutSeconds      int32
	SuccessThreshold    int32
	FailureThreshold    int32
}

// Budget is how long the probe lets a container fail from its start before the
// kubelet acts: initialDelaySeconds + failureThreshold × periodSeconds. For a
// startup probe this is the time the container has to start; for a liveness
// probe without a startup probe, the time before the first kill.
func (p Probe) Budget() time.Duration {
	return time.Duration(p.InitialDelaySeconds+p.FailureThreshold*p.PeriodSeconds) * time.Second
}

// String describes the probe as kubectl describe does.
func (p Probe) String() string {
	return fmt.Sprintf("%s %s delay=%ds timeout=%ds period=%ds #success=%d #failure=%d",
		p.Kind, p.Action, p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
}

// Probes lists the container's startup, readiness and liveness probes with the
// API defaults filled in (timeout 1s, period 10s, success 1, failure 3).
func Probes(c *corev1.Container) []Probe {
	if c == nil {
		return nil
	}
	var out []Probe
	for _, k := range []struct {
		kind  string
		probe *corev1.Probe
	}{{"startup", c.StartupProbe}, {"readiness", c.ReadinessProbe}, {"liveness", c.LivenessProbe}} {
		if k.probe == nil {
			continue
		}
		p := k.probe
		out = append(out, Probe{
			Kind: k.kind, Action: probeAction(p),
			InitialDelaySeconds: p.InitialDelaySeconds,
			PeriodSeconds:       orDefault(p.PeriodSeconds, 10),
			TimeoutSeconds:      orDefault(p.TimeoutSeconds, 1),
			SuccessThreshold:    orDefault(p.SuccessThreshold, 1),
			FailureThreshold:    orDefault(p.FailureThreshold, 3),
		})
	}
	return out
}

func probeAction(p *corev1.Probe) string {
	switch {
	case p.HTTPGet != nil:
		scheme := "http"
		if p.HTTPGet.Scheme == corev1.URISchemeHTTPS {
			scheme = "https"
		}
		return fmt.Sprintf("http-get %s://%s:%s%s", scheme, p.HTTPGet.Host, p.HTTPGet.Port.String(), p.HTTPGet.Path)
	case p.TCPSocket != nil:
		return "tcp-socket " + p.TCPSocket.Host + ":" + p.TCPSocket.Port.String()
	case p.Exec != nil:
		return fmt.Sprint("exec ", p.Exec.Command)
	case p.GRPC != nil:
		return fmt.Sprintf("grpc :%d", p.GRPC.Port)
	}
	return "unknown"
}

func orDefault(v, d int32) int32 {
	if v == 0 {
		return d
	}
	return v
}

// Container is one container of a pod as a support engineer reads it: its
// kind, current and last state with exit code, signal and their meaning, its
// restarts and, while it is in CrashLoopBackOff, the kubelet's back-off.
type Container struct {
	Name  string
	Kind  string // "init", "sidecar" (restartable init container) or "app"
	Image string
	State string // waiting, running, terminated, or "" when the status has none
	// Reason and Message of the current state (waiting or terminated).
	Reason, Message string
	ExitCode        *int32
	Signal          int32
	ExitMeaning     string
	Ready           bool
	Started         *bool
	RestartCount    int32
	// Last holds the previous termination, when there was one.
	Last *Termination
	// BackOff is the current restart delay and the time of the next restart,
	// set only for a container waiting in CrashLoopBackOff.
	BackOff     time.Duration
	NextRestart time.Time
	// CrashLoopSince is when the back-off began, as far as the gather shows
	// (set by the parser from BackOff events; zero when unknown).
	CrashLoopSince time.Time
	Probes         []Probe
}

// Termination is one finished run of a container.
type Termination struct {
	Reason      string
	ExitCode    int32
	Signal      int32
	ExitMeaning string
	StartedAt   time.Time
	FinishedAt  time.Time
}

// Containers describes the init, sidecar and app containers of pod that have a
// status, in spec order.
func Containers(pod *corev1.Pod) []Container {
	var out []Container
	specs := map[string]*corev1.Container{}
	for i := range pod.Spec.InitContainers {
		specs["init/"+pod.Spec.InitContainers[i].Name] = &pod.Spec.InitContainers[i]
	}
	for i := range pod.Spec.Containers {
		specs["app/"+pod.Spec.Containers[i].Name] = &pod.Spec.Containers[i]
	}
	add := func(st *corev1.ContainerStatus, spec *corev1.Container, kind string) {
		c := Container{Name: st.Name, Kind: kind, Image: st.Image, Ready: st.Ready, Started: st.Started, RestartCount: st.RestartCount, Probes: Probes(spec)}
		if spec != nil && spec.Image != "" {
			c.Image = spec.Image
		}
		switch s := st.State; {
		case s.Waiting != nil:
			c.State, c.Reason, c.Message = "waiting", s.Waiting.Reason, s.Waiting.Message
		case s.Running != nil:
			c.State = "running"
		case s.Terminated != nil:
			t := s.Terminated
			code := t.ExitCode
			c.State, c.Reason, c.Message, c.ExitCode, c.Signal = "terminated", t.Reason, t.Message, &code, t.Signal
			c.ExitMeaning = ExitMeaning(t.ExitCode, t.Signal, t.Reason)
		}
		if t := st.LastTerminationState.Terminated; t != nil {
			c.Last = &Termination{Reason: t.Reason, ExitCode: t.ExitCode, Signal: t.Signal, ExitMeaning: ExitMeaning(t.ExitCode, t.Signal, t.Reason),
				StartedAt: t.StartedAt.Time.UTC(), FinishedAt: t.FinishedAt.Time.UTC()}
		}
		if c.State == "waiting" && c.Reason == "CrashLoopBackOff" {
			d, ok := ParseBackOffMessage(c.Message)
			if !ok {
				d = BackOffDelay(int(st.RestartCount))
			}
			c.BackOff = d
			// A finish time at the end of year 9999 plus the back-off is
			// no time a report can write: then no next restart is said.
			if c.Last != nil && !c.Last.FinishedAt.IsZero() && c.Last.FinishedAt.Add(d).Year() <= 9999 {
				c.NextRestart = c.Last.FinishedAt.Add(d)
			}
		}
		out = append(out, c)
	}
	for i := range pod.Status.InitContainerStatuses {
		st := &pod.Status.InitContainerStatuses[i]
		spec := specs["init/"+st.Name]
		kind := "init"
		if IsSidecar(spec) {
			kind = "sidecar"
		}
		add(st, spec, kind)
	}
	for i := range pod.Status.ContainerStatuses {
		st := &pod.Status.ContainerStatuses[i]
		add(st, specs["app/"+st.Name], "app")
	}
	return out
}
