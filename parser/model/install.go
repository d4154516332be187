package model

import "time"

// LayoutInstallBundle is the log bundle `openshift-install gather bootstrap`
// writes for a failed install: log-bundle-<id>/ with bootstrap/journals/,
// bootstrap/containers/, control-plane/<master>/, resources/*.json (empty
// files when the API never answered), failed-units.txt and rendered-assets/.
const LayoutInstallBundle = "install log bundle"

// Install stages: what a line of an install log bundle shows.
const (
	StageReleaseImage = "release-image" // the release image could not be pulled on the bootstrap node
	StageEtcd         = "etcd"          // etcd on the bootstrap node did not form or stay healthy
	StageAPIWait      = "api-wait"      // bootkube (cluster-bootstrap) waited for the Kubernetes API
	StageBootkube     = "bootkube"      // bootkube.service failed or exited
	StageMasters      = "masters"       // control-plane machines not found or not registered
	StageCSR          = "csr"           // certificate signing requests left pending
	StageComplete     = "complete"      // the bootstrap finished (the install went past it)
)

// InstallBundle is what an install log bundle tells about how far the
// install got, with the journal lines that show it.
type InstallBundle struct {
	// Root is the bundle's folder relative to the input ("" or ending in "/").
	Root string `json:"root"`
	// Resources are the resources/*.json files read; Empty those of them
	// with no content (what `oc get` left when the API never answered).
	Resources []string `json:"resources,omitempty"`
	Empty     []string `json:"empty,omitempty"`
	// Masters lists the control-plane hosts the bundle holds a folder of
	// (control-plane/<host>/); MastersListed is how many names
	// resources/masters.list holds (-1 when the file is not in the bundle).
	Masters       []string `json:"masters,omitempty"`
	MastersListed int      `json:"mastersListed"`
	// Steps are the lines that show a stage, collapsed by stage, host and
	// message, oldest first.
	Steps []InstallStep `json:"steps,omitempty"`
	// Containers are the container logs of the bootstrap node and the
	// masters (bootstrap/containers/<name>-<id>.log).
	Containers []InstallContainer `json:"containers,omitempty"`
}

// InstallStep is a run of lines of one stage with the same message.
type InstallStep struct {
	Stage string `json:"stage"`
	// Host is the host of the journal line, else "bootstrap" or the
	// control-plane/<host> folder the file lies in.
	Host   string    `json:"host"`
	Unit   string    `json:"unit"` // the journal file's unit: bootkube, release-image, approve-csr, ...
	Source Source    `json:"source"`
	First  time.Time `json:"first"`
	Last   time.Time `json:"last"`
	Count  int       `json:"count"`
	Text   string    `json:"text"`
}

// InstallContainer is the bounded tail of one container log of the bundle.
type InstallContainer struct {
	Host string        `json:"host"`
	Name string        `json:"name"`
	Log  *ContainerLog `json:"log"`
}

// APIAnswered reports whether any resources/*.json of the bundle holds
// something: the API server answered the gather's `oc get` at least once.
func (ib *InstallBundle) APIAnswered() bool {
	return len(ib.Resources) > len(ib.Empty)
}

// Reached reports whether a step of stage was seen.
func (ib *InstallBundle) Reached(stage string) bool {
	for _, s := range ib.Steps {
		if s.Stage == stage {
			return true
		}
	}
	return false
}
