// Package mc holds the Monte Carlo plumbing shared by loadlab's packages:
// derived random streams (Source, the public loadlab.Stream), a
// deterministic parallel loop and confidence intervals. It is not API.
package mc
