// SPDX-License-Identifier: MIT

package skn

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// mapped reports whether path is mapped into this process.
func mapped(t *testing.T, path string) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	return strings.Contains(string(maps), path)
}

// collectUntil runs the collector (finalizers run on their own goroutine
// after a cycle) until done says so, a bounded number of times.
func collectUntil(done func() bool) bool {
	for i := 0; i < 200 && !done(); i++ {
		runtime.GC()
		runtime.Gosched()
	}
	return done()
}

// A GGUF reader's mapping lives while the reader or a tensor view of it
// does: Close keeps it for the view, releasing the view unmaps it, and a
// reader the program forgot is unmapped by its finalizer.
func TestMappingLifetimeAndFinalizers(t *testing.T) {
	file, _ := writeModel(t)
	path := filepath.Join(t.TempDir(), "lifetime.gguf")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenGGUF(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !mapped(t, path) {
		t.Fatal("an open reader's file is not mapped")
	}
	v, err := r.TensorView(0)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if !mapped(t, path) {
		t.Fatal("the mapping went with the reader although a view still reads it")
	}
	v.Close()
	if mapped(t, path) {
		t.Fatal("the mapping outlived the reader and its last view")
	}

	func() {
		forgotten, err := OpenGGUF(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := forgotten.TensorView(0); err != nil { // a forgotten view too
			t.Fatal(err)
		}
	}()
	if !collectUntil(func() bool { return !mapped(t, path) }) {
		t.Fatal("a forgotten reader and view were never finalized: the file is still mapped")
	}
}
