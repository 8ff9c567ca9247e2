// Package arch holds no code: its test checks that docs/architecture.md
// lists every package of the module and that each package imports only
// the loadlab packages its row allows.
package arch
