#include "core/util/system.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace gv::util {
namespace fs = std::filesystem;

int cloexec_pipe(int fds[2]) {
#if defined(GV_HAVE_PIPE2)
  return ::pipe2(fds, O_CLOEXEC);
#else
  if (::pipe(fds) != 0) {
    return -1;
  }
  for (int i = 0; i < 2; ++i) {
    if (::fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0) {
      const int saved = errno;
      ::close(fds[0]);
      ::close(fds[1]);
      errno = saved;
      return -1;
    }
  }
  return 0;
#endif
}

#if defined(GV_HAVE_SYNCFS)
const bool k_has_syncfs = true;
#else
const bool k_has_syncfs = false;
#endif

#if !defined(GV_HAVE_SYNCFS)
namespace {

// fsync of one folder; `full` asks the drive to empty its cache too where the system can.
int sync_folder(const fs::path& folder, bool full) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return errno == ENOENT ? 0 : -1;  // gone with everything in it: nothing to keep
  }
  int rc = -1;
#if defined(F_FULLFSYNC)
  if (full) {
    rc = ::fcntl(fd, F_FULLFSYNC);
  }
#else
  (void)full;
#endif
  if (rc != 0) {
    rc = ::fsync(fd);
  }
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return rc;
}

}  // namespace
#endif

void sync_file_system(const fs::path& dir, std::span<const fs::path> folders) {
#if defined(GV_HAVE_SYNCFS)
  (void)folders;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    throw Error("{}: cannot open to sync: {}", dir.string(), std::strerror(errno));
  }
  const int rc = ::syncfs(fd);
  const std::string why = std::strerror(errno);
  ::close(fd);
  if (rc != 0) {
    throw Error("{}: cannot sync the file system: {}", dir.string(), why);
  }
#else
  for (const fs::path& folder : folders) {
    if (sync_folder(folder, false) != 0) {
      throw Error("{}: cannot sync: {}", folder.string(), std::strerror(errno));
    }
  }
  if (sync_folder(dir, true) != 0) {
    throw Error("{}: cannot sync the file system: {}", dir.string(), std::strerror(errno));
  }
#endif
}

}  // namespace gv::util
