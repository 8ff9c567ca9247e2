// Package mc holds the Monte Carlo plumbing shared by loadlab's packages:
// derived random streams, a deterministic parallel loop and confidence
// intervals. It is not API.
package mc
