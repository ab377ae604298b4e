#!/bin/bash
# os_calls.sh ARCHIVE EXE — no operating-system call outside the platform
# edge (engine/platform/, doc/architecture.md "The platform edge"): `nm` lists the undefined symbols of
# every object in the engine's static archive and of the CLI executable;
# only the platform objects (platform_*.o) may reference the file, folder,
# path and character-set calls below.  (Locale calls belong to the number
# parsers and are not listed; console output through stdio is allowed.)
set -euo pipefail
archive=$1 exe=$2
os='open|open64|openat|openat64|creat|close|read|write|pread|pwrite|lseek|lseek64'
os+='|mmap|mmap64|munmap|madvise|posix_madvise|msync|sysconf'
os+='|mkstemp|mkstemp64|mkostemp|tmpfile|fchmod|chmod|umask|fsync|fdatasync'
os+='|rename|renameat|unlink|unlinkat|remove|mkdir|mkdirat|rmdir|opendir|readdir'
os+='|stat|stat64|fstat|fstat64|lstat|lstat64|fstatat|fstatat64|statx|access|faccessat'
os+='|__xstat|__xstat64|__fxstat|__fxstat64|__lxstat|__lxstat64'
os+='|realpath|__realpath_chk|readlink|__readlink_chk|getcwd|chdir|dirname|basename'
os+='|fopen|fopen64|freopen|fdopen|setmode|_setmode'
os+='|iconv|iconv_open|iconv_close|strcasecmp|strncasecmp'
bad=$(nm -A -u "$archive" 2>/dev/null | awk '{print $1, $NF}' |
    grep -Ev '(^|[:/])platform_[a-z0-9_]+\.c\.o:' | grep -E " ($os)(@.*)?$" || true)
bad+=${bad:+$'\n'}$(nm -u -D "$exe" | awk '{print "'"$(basename "$exe")"': " $NF}' |
    grep -E " ($os)(@.*)?$" || true)
if [ -n "$bad" ]; then
    echo "operating-system calls outside engine/platform/:"
    echo "$bad"
    exit 1
fi
n=$(nm -A -u "$archive" | grep -E '(^|[:/])platform_[a-z0-9_]+\.c\.o:' | awk '{print $NF}' |
    grep -cE "^($os)(@.*)?$" || true)
echo "os calls: none outside engine/platform/ ($n references inside it)"
