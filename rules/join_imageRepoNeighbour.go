package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinImageRepoNeighbour runs the imageRepoNeighbour join for one pod and hit
// (doc and reads: joinRegistry).
func joinImageRepoNeighbour(c *evalContext, p *model.Pod, h *hit) joinResult {
	repo := h.Vars["Repository"]
	if repo == "" {
		repo = h.Vars["Image"]
	}
	repo = repoName(repo)
	if repo == "" {
		return joinResult{}
	}
	owner, _ := repoOwner(repo)
	x := c.pulledRepos()
	if _, ok := x.pod[repo]; ok {
		return joinResult{} // the node pulled it for another pod: credentials, not the name
	}
	near, what := "", ""
	if o := model.NearestName(owner, x.owners); owner != "" && o != "" && o != owner {
		near, what = x.ownerRepo[o], fmt.Sprintf("account %s, a near spelling of %s", o, owner)
	} else if r := model.NearestName(repo, x.repos); r != "" {
		near, what = r, fmt.Sprintf("repository %s, a near spelling of %s", r, repo)
	}
	if near == "" {
		return joinResult{}
	}
	q := x.pod[near]
	res := joinResult{Decided: true}
	res.Cause = fmt.Sprintf("Another container of the gather was pulled from the %s (pod %s/%s runs %s): the reference %s is most likely misspelt, naming a repository that does not exist.",
		what, q.Object.Namespace, q.Object.Name, near, repo)
	res.Fix = fmt.Sprintf("Compare %s with %s, which does pull.", repo, near)
	res.Evidence = append(res.Evidence, Evidence{Source: q.Source, Kind: EvidenceStatus, Text: fmt.Sprintf("pod %s/%s pulled %s", q.Object.Namespace, q.Object.Name, near), Summary: true})
	return res
}

// pulledIndex is what the imageRepoNeighbour join reads of every pod of
// the gather, built once per evaluation rather than once per failing pod.
type pulledIndex struct {
	// pod maps each repository a container did pull (its status has an
	// imageID) to the first pod, in gather order, that pulled it.
	pod map[string]*model.Pod
	// repos and owners are the pulled repositories and their owners
	// (repoOwner), sorted; ownerRepo maps an owner to one repository of it.
	repos, owners []string
	ownerRepo     map[string]string
}

// pulledRepos returns the gather's pulledIndex, building it on first use.
func (c *evalContext) pulledRepos() *pulledIndex {
	if c.pulled != nil {
		return c.pulled
	}
	x := &pulledIndex{pod: map[string]*model.Pod{}, ownerRepo: map[string]string{}}
	for _, q := range c.gather.Pods {
		statuses := append(slices.Clone(q.Object.Status.InitContainerStatuses), q.Object.Status.ContainerStatuses...)
		for _, st := range statuses {
			if st.ImageID == "" || st.Image == "" {
				continue
			}
			r := repoName(st.Image)
			if _, seen := x.pod[r]; !seen {
				x.pod[r] = q
			}
		}
	}
	for r := range x.pod {
		x.repos = append(x.repos, r)
	}
	sort.Strings(x.repos)
	for _, r := range x.repos { // in order: an owner's last repository wins, every run alike
		if o, ok := repoOwner(r); ok {
			x.owners = append(x.owners, o)
			x.ownerRepo[o] = r
		}
	}
	sort.Strings(x.owners)
	c.pulled = x
	return x
}

// repoName is an image reference's repository as Docker's messages name it:
// without tag or digest, without the docker.io host and its library/
// prefix ("docker.io/library/nginx:1" → "nginx").
func repoName(image string) string {
	image = strings.TrimSpace(image)
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, ":"); i >= 0 && !strings.Contains(image[i:], "/") {
		image = image[:i]
	}
	for _, p := range []string{"docker.io/", "index.docker.io/", "registry-1.docker.io/"} {
		image = strings.TrimPrefix(image, p)
	}
	return strings.TrimPrefix(image, "library/")
}

// repoOwner is the part of a repository before its image name (the Docker
// Hub account, or registry/organisation), and false for a bare name.
func repoOwner(repo string) (string, bool) {
	i := strings.LastIndex(repo, "/")
	if i <= 0 {
		return "", false
	}
	return repo[:i], true
}
