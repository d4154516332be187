package model

import "time"

// Alert is one firing or pending alert of monitoring/prometheus/rules.json.
// Labels hold the alert's labels (namespace, pod, node, ... name the objects
// it is about); ActiveAt is when it started firing or pending.
type Alert struct {
	Name     string
	State    string // firing or pending
	Severity string // the severity label: critical, warning, info, none
	Labels   map[string]string
	// Message is the summary, description or message annotation.
	Message  string
	ActiveAt time.Time
	Source   Source
}

// EtcdHealth is what etcd_info/*.json say: endpoints that failed their health
// check, active alarms (NOSPACE, CORRUPT) and the largest database size.
type EtcdHealth struct {
	Endpoints int
	Unhealthy []string // "endpoint: error"
	Alarms    []string // "member <id>: NOSPACE"
	MaxDBSize int64    // bytes
	Sources   []Source
}
