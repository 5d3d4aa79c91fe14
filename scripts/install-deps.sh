#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those that are missing.
set -euo pipefail
PKGS=(build-essential cmake make pkg-config g++
      libgtest-dev libgmock-dev libbenchmark-dev
      libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev
      libsqlite3-dev libxxhash-dev libzstd-dev libtomlplusplus-dev libseccomp-dev
      libcurl4-openssl-dev libcpp-httplib-dev
      clang-19 llvm-19-dev libclang-19-dev libclang-cpp19-dev  # aoc-rewrite (tools/rewrite)
      chromium zlib1g-dev  # the HTML report test renders in Chromium and reads its PNG screenshot
      jq bc  # scripts/compare-eval.sh and the scripts that read reports
      slurmctld slurmd slurm-client munge)  # --executor slurm and its tests' one-node cluster (scripts/slurm-local.sh)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
