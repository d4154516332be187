// Package parser reads a must-gather (directory or archive) in one sequential
// pass and fills the model (package model): pods with their kubectl columns
// and startup stage, events, nodes, cluster version, the node-log lines and
// container-log tails that belong to each pod, and the problems met while
// reading. It knows nothing of rules or output formats.
package parser
