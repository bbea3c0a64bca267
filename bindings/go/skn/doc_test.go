// SPDX-License-Identifier: MIT

package skn

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// go doc shows the package comment of doc.go: no file may attach another
// comment (its SPDX line, say) to its package clause, or go doc would show
// that instead.
func TestPackageDocIsDocGo(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil && name != "doc.go" {
			t.Errorf("%s: %q is attached to its package clause (leave a blank line before `package`)", name,
				f.Doc.Text())
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "skn")
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Synopsis(p.Doc); !strings.HasPrefix(s, "Package skn binds libskn") {
		t.Fatalf("go doc's summary is %q", s)
	}
}
