package peers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// The JS relay's committed files, copied into its cache entry: npm ci
// installs next to them, and node resolves the server's requires from
// the node_modules beside it.
var jsRelayFiles = []string{"package.json", "package-lock.json", "server.js"}

// jsReady marks a cache entry whose npm ci finished.
const jsReady = ".installed"

func serverScript(dir string) string { return filepath.Join(dir, "server.js") }

// jsRelay returns node's path and the directory holding the JS relay
// installed with its locked dependencies, running npm ci there first if
// no entry for these files and this node version is cached. Running needs
// node; installing needs npm and a C++ toolchain, since better-sqlite3
// compiles against node's headers.
func jsRelay(ctx context.Context) (nodeBin, dir string, err error) {
	if err := needTools("jsrelay", "to run the JS relay", "node"); err != nil {
		return "", "", err
	}
	src, err := sourceDir()
	if err != nil {
		return "", "", err
	}
	src = filepath.Join(src, "jsrelay")
	// node's version is part of the key: the native module is built for
	// one ABI.
	version, err := output(ctx, src, nil, "node", "--version")
	if err != nil {
		return "", "", err
	}
	key, err := contentKey(src, jsRelayFiles, version)
	if err != nil {
		return "", "", err
	}
	cache, err := cacheDir()
	if err != nil {
		return "", "", err
	}
	dir = filepath.Join(cache, "jsrelay-"+key)
	nodeBin = "node"
	if _, err := os.Stat(filepath.Join(dir, jsReady)); err == nil {
		return nodeBin, dir, nil
	}
	if err := needTools("jsrelay", "to install the JS relay's packages; better-sqlite3 compiles with node-gyp", "npm", "g++", "make", "python3"); err != nil {
		return "", "", err
	}
	err = withLock(ctx, cache, "jsrelay", func() error {
		if _, err := os.Stat(filepath.Join(dir, jsReady)); err == nil {
			return nil
		}
		_ = os.RemoveAll(dir) // an install that did not finish
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, f := range jsRelayFiles {
			b, err := os.ReadFile(filepath.Join(src, f))
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, f), b, 0o644)
			}
			if err != nil {
				return err
			}
		}
		env := os.Environ()
		// Debian's nodejs keeps its headers under /usr/include/node; without
		// this node-gyp would try to download them.
		if _, err := os.Stat("/usr/include/node/node.h"); err == nil {
			env = append(env, "npm_config_nodedir=/usr")
		}
		if _, err := output(ctx, dir, env, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
			return fmt.Errorf("installing the JS relay: %w", err)
		}
		return os.WriteFile(filepath.Join(dir, jsReady), []byte(version+"\n"), 0o644)
	})
	if err != nil {
		return "", "", err
	}
	return nodeBin, dir, nil
}
