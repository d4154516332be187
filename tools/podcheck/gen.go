package podcheck

import (
	"fmt"
	"math/rand/v2"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Generator makes random pods whose timestamps lie a whole number of seconds
// (plus half a second) away from Now, so that a printer reading the wall
// clock a little later still rounds every duration to the same second.
type Generator struct {
	Now time.Time
	r   *rand.Rand
}

// NewGenerator returns a generator with a fixed seed.
func NewGenerator(seed uint64, now time.Time) *Generator {
	return &Generator{Now: now, r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *Generator) chance(p float64) bool { return g.r.Float64() < p }

func (g *Generator) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// secondsAgo is a random age in seconds, spread over every HumanDuration
// range, a few of them in the future.
func (g *Generator) secondsAgo() int64 {
	ranges := [][2]int64{
		{-10, 0}, {0, 120}, {120, 600}, {600, 3 * 3600}, {3 * 3600, 8 * 3600},
		{8 * 3600, 48 * 3600}, {48 * 3600, 8 * 86400}, {8 * 86400, 2 * 365 * 86400},
		{2 * 365 * 86400, 8 * 365 * 86400}, {8 * 365 * 86400, 12 * 365 * 86400},
	}
	rg := ranges[g.r.IntN(len(ranges))]
	return rg[0] + g.r.Int64N(rg[1]-rg[0])
}

// at is the instant k seconds before Now, nudged by half a second away from
// the rounding boundary: a duration measured up to half a second later still
// truncates to k seconds.
func (g *Generator) at(k int64) metav1.Time {
	d := time.Duration(k) * time.Second
	if k >= 0 {
		d += 500 * time.Millisecond
	} else {
		d -= 500 * time.Millisecond
	}
	return metav1.NewTime(g.Now.Add(-d))
}

func (g *Generator) randomTime() metav1.Time { return g.at(g.secondsAgo()) }

var waitingReasons = []string{"", "PodInitializing", "ContainerCreating", "CrashLoopBackOff", "ImagePullBackOff",
	"ErrImagePull", "CreateContainerConfigError", "RunContainerError"}

type termination struct {
	reason       string
	exit, signal int32
}

var terminations = []termination{
	{"Completed", 0, 0}, {"Completed", 0, 0}, {"", 0, 0}, {"Error", 1, 0}, {"Error", 1, 0}, {"OOMKilled", 137, 0},
	{"", 137, 9}, {"", 2, 0}, {"Error", 137, 9}, {"ContainerStatusUnknown", 137, 0}, {"", 0, 15}, {"StartError", 128, 0},
}

func (g *Generator) terminated() *corev1.ContainerStateTerminated {
	t := terminations[g.r.IntN(len(terminations))]
	return &corev1.ContainerStateTerminated{Reason: t.reason, ExitCode: t.exit, Signal: t.signal, FinishedAt: g.randomTime()}
}

func (g *Generator) state() corev1.ContainerState {
	switch g.r.IntN(7) {
	case 0, 1:
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: waitingReasons[g.r.IntN(len(waitingReasons))]}}
	case 2, 3:
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: g.randomTime()}}
	case 4, 5:
		return corev1.ContainerState{Terminated: g.terminated()}
	default:
		return corev1.ContainerState{}
	}
}

// status is a container status with a random state, flags and restarts.
func (g *Generator) status(name string) corev1.ContainerStatus {
	s := corev1.ContainerStatus{Name: name, State: g.state(), Ready: g.chance(0.5)}
	switch g.r.IntN(3) {
	case 0:
		t := true
		s.Started = &t
	case 1:
		f := false
		s.Started = &f
	}
	if g.chance(0.5) {
		s.RestartCount = int32(g.r.IntN(40))
	}
	if g.chance(0.5) {
		t := &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 1}
		if !g.chance(0.1) {
			t.FinishedAt = g.randomTime()
		}
		s.LastTerminationState.Terminated = t
	}
	return s
}

// Pod returns the next random pod.
func (g *Generator) Pod(i int) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Namespace: "ns"}}
	if !g.chance(0.05) {
		p.CreationTimestamp = g.randomTime()
	}
	if g.chance(0.25) {
		t := g.randomTime()
		p.DeletionTimestamp = &t
	}
	p.Status.Phase = corev1.PodPhase(g.pick("Pending", "Running", "Running", "Succeeded", "Failed", "Failed", "Unknown", ""))
	if g.chance(0.3) {
		p.Status.Reason = g.pick("Evicted", "NodeLost", "NodeLost", "NodeAffinity", "UnexpectedAdmissionError", "OutOfcpu", "Terminated")
	}
	g.conditions(p)

	// Init containers: those before a random point are done (regular ones
	// completed, sidecars running and started), the one at the point is
	// random, those after it mostly still waiting.
	nInit := g.r.IntN(4)
	point := g.r.IntN(nInit + 1)
	for j := 0; j < nInit; j++ {
		c := corev1.Container{Name: fmt.Sprintf("init-%d", j)}
		sidecar := g.chance(0.35)
		if sidecar {
			always := corev1.ContainerRestartPolicyAlways
			c.RestartPolicy = &always
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		s := g.status(c.Name)
		switch {
		case j < point && !sidecar && !g.chance(0.1):
			s.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", FinishedAt: g.randomTime()}}
			s.Ready = false
		case j < point && sidecar && !g.chance(0.1):
			t := true
			s.Started = &t
			s.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: g.randomTime()}}
		case j > point && g.chance(0.7):
			s.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}}
			s.Ready, s.Started = false, nil
		}
		if g.chance(0.03) {
			s.Name = "unknown-" + s.Name
		}
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, s)
	}
	if nInit > 0 && g.chance(0.1) {
		p.Status.InitContainerStatuses = p.Status.InitContainerStatuses[:g.r.IntN(nInit)]
	}

	nApp := 1 + g.r.IntN(4)
	for j := 0; j < nApp; j++ {
		c := corev1.Container{Name: fmt.Sprintf("c-%d", j)}
		p.Spec.Containers = append(p.Spec.Containers, c)
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, g.status(c.Name))
	}
	if g.chance(0.1) {
		p.Status.ContainerStatuses = p.Status.ContainerStatuses[:g.r.IntN(nApp)]
	}
	return p
}

func (g *Generator) conditions(p *corev1.Pod) {
	status := func() corev1.ConditionStatus {
		return corev1.ConditionStatus(g.pick("True", "False", "False", "Unknown"))
	}
	if g.chance(0.3) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled, Status: status(),
			Reason: g.pick("", "SchedulingGated", "SchedulingGated", "Unschedulable")})
	}
	if g.chance(0.6) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodInitialized, Status: status()})
	}
	if g.chance(0.6) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.ContainersReady, Status: status()})
	}
	if g.chance(0.6) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: status()})
	}
	g.r.Shuffle(len(p.Status.Conditions), func(i, j int) {
		p.Status.Conditions[i], p.Status.Conditions[j] = p.Status.Conditions[j], p.Status.Conditions[i]
	})
}
