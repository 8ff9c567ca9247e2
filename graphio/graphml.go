package graphio

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab/wgraph"
)

// WriteGraphML writes g as an undirected GraphML document with a double
// edge attribute "weight" (key d0). labels gives the node ids (nil means
// n0, n1, …); it panics if labels is not nil and its length is not
// g.Order(). Duplicate or empty labels are an error. Weights are written
// in the shortest form that reads back exactly, so ReadGraphML returns
// the same graph and labels, isolated nodes included. It panics if w or
// g is nil.
func WriteGraphML(w io.Writer, g *wgraph.Graph, labels []string) error {
	mustIO("WriteGraphML", "w", w)
	mustGraph("WriteGraphML", g)
	name, err := xmlLabeller(g, labels)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(xml.Header)
	bw.WriteString(`<graphml xmlns="http://graphml.graphdrawing.org/xmlns">` + "\n")
	bw.WriteString(`  <key id="d0" for="edge" attr.name="weight" attr.type="double"/>` + "\n")
	bw.WriteString(`  <graph id="G" edgedefault="undirected">` + "\n")
	for i := 0; i < g.Order(); i++ {
		fmt.Fprintf(bw, "    <node id=\"%s\"/>\n", name(i))
	}
	for _, e := range g.Edges() {
		fmt.Fprintf(bw, "    <edge source=\"%s\" target=\"%s\"><data key=\"d0\">%s</data></edge>\n",
			name(e.U), name(e.V), strconv.FormatFloat(e.W, 'g', -1, 64))
	}
	bw.WriteString("  </graph>\n</graphml>\n")
	return bw.Flush()
}

// xmlLabeller returns escaped node ids after checking labels.
func xmlLabeller(g *wgraph.Graph, labels []string) (func(int) string, error) {
	if labels == nil {
		return func(i int) string { return "n" + strconv.Itoa(i) }, nil
	}
	if len(labels) != g.Order() {
		panic(fmt.Sprintf("graphio: %d labels for %d nodes", len(labels), g.Order()))
	}
	esc := make([]string, len(labels))
	seen := make(map[string]bool, len(labels))
	for i, l := range labels {
		if l == "" || seen[l] || !validXML(l) {
			return nil, bad(0, fmt.Sprintf("labels[%d]", i), l, "empty, duplicate or not valid XML text")
		}
		seen[l] = true
		var b strings.Builder
		xml.EscapeText(&b, []byte(l))
		esc[i] = strings.ReplaceAll(b.String(), `"`, "&#34;")
	}
	return func(i int) string { return esc[i] }, nil
}

// validXML reports whether s is valid UTF-8 made of XML characters and
// without leading or trailing blanks (which attribute normalisation would
// change).
func validXML(s string) bool {
	if strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if r == '\uFFFD' || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == '\t' || r == '\n' || r == '\r' {
			return false
		}
	}
	return true
}
