#!/usr/bin/env bash
# Runs mcp_session.cjs: `git vault mcp` driven by the official MCP TypeScript SDK client.
#   tests/sdk/run.sh <git-vault binary> <folder whose node_modules holds @modelcontextprotocol/sdk>
# Exits 77 (ctest: skipped) when node or the SDK is not installed; tests/run.sh installs the SDK
# into <build>/mcp-sdk.
set -euo pipefail
binary=$1
sdk=$2
if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node is not installed"
  exit 77
fi
if [ ! -f "$sdk/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
  echo "skipped: no @modelcontextprotocol/sdk in $sdk/node_modules (tests/run.sh installs it)"
  exit 77
fi
exec node "$(dirname "${BASH_SOURCE[0]}")/mcp_session.cjs" "$binary" "$sdk"
