// The zygote: a socket to a process forked at the suite's start, one forked child per milab-cli command.
#include "cli_zygote.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDataStream>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <vector>

#include "cli/cli_app.h"
#include "cli/stop_signals.h"
#include "time_limits.h"

namespace cli_zygote {

namespace {

int zygoteSocket = -1;  // the suite's end; the zygote holds the other

struct Request {
  QStringList args, environment;
  QString folder, outPath, errPath;
};

bool sendAll(int fd, const void* data, qint64 size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::send(fd, p, size_t(size), MSG_NOSIGNAL);  // a gone peer is an error here, not a SIGPIPE
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= n;
  }
  return true;
}

bool receiveAll(int fd, void* data, qint64 size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::recv(fd, p, size_t(size), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= n;
  }
  return true;
}

bool sendRequest(int fd, const Request& r) {
  QByteArray block;
  QDataStream stream(&block, QIODevice::WriteOnly);
  stream << r.args << r.environment << r.folder << r.outPath << r.errPath;
  const qint64 size = block.size();
  return sendAll(fd, &size, sizeof size) && sendAll(fd, block.constData(), size);
}

bool receiveRequest(int fd, Request* r) {
  qint64 size = 0;
  if (!receiveAll(fd, &size, sizeof size)) return false;
  QByteArray block(size, Qt::Uninitialized);
  if (!receiveAll(fd, block.data(), size)) return false;
  QDataStream stream(block);
  stream >> r->args >> r->environment >> r->folder >> r->outPath >> r->errPath;
  return true;
}

void redirect(const QString& path, int flags, int fd) {
  const int opened = ::open(QFile::encodeName(path).constData(), flags, 0600);
  if (opened < 0 || ::dup2(opened, fd) < 0) _exit(127);
  ::close(opened);
}

// The request's child: milab-cli's main in the world a QProcess child of the suite would see.
[[noreturn]] void runCommand(const Request& r, int socket) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // ends with the zygote, as the zygote ends with the suite
  ::close(socket);
  redirect("/dev/null", O_RDONLY, STDIN_FILENO);
  redirect(r.outPath, O_WRONLY | O_CREAT | O_TRUNC, STDOUT_FILENO);
  redirect(r.errPath, O_WRONLY | O_CREAT | O_TRUNC, STDERR_FILENO);
  if (::chdir(QFile::encodeName(r.folder).constData()) != 0) _exit(127);
  ::clearenv();
  for (const QString& entry : r.environment) ::putenv(::strdup(entry.toLocal8Bit().constData()));
  std::vector<QByteArray> words{QByteArray(MILAB_CLI_PATH)};
  for (const QString& arg : r.args) words.push_back(arg.toLocal8Bit());
  std::vector<char*> argv;
  for (QByteArray& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const int code = milab::finalExitCode(milab::cliMain(int(words.size()), argv.data()));
  // main() would return here and exit() run the static destructors: in a fork, LibTorch's teardown of its operator
  // table writes to pages shared with the zygote and copies each one (0.5 s a command, against under 1% of a real
  // process's 0.7 s). Everything cliMain opened is closed by now; stdio's buffers are what is left.
  std::fflush(nullptr);
  _exit(code);
}

// Answers each request with the child's pid as it starts, then its wait status; ends when the suite closes its end.
[[noreturn]] void serve(int socket) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a suite killed by CTest's timeout takes its zygote along
  Request r;
  while (receiveRequest(socket, &r)) {
    const pid_t child = ::fork();
    if (child == 0) runCommand(r, socket);
    const qint64 pid = child;
    if (!sendAll(socket, &pid, sizeof pid)) break;
    int status = -1;
    if (child > 0)
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
    if (!sendAll(socket, &status, sizeof status)) break;
  }
  _exit(0);
}

int threadCount() { return int(QDir("/proc/self/task").entryList(QDir::Dirs | QDir::NoDotAndDotDot).size()); }

}  // namespace

bool start() {
#ifdef MILAB_TSAN
  return false;
#endif
  if (threadCount() != 1) return false;
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return false;
  const pid_t zygote = ::fork();
  if (zygote < 0) return false;
  if (zygote == 0) {
    ::close(ends[0]);
    serve(ends[1]);
  }
  ::close(ends[1]);
  zygoteSocket = ends[0];
  cliRunner() = &run;
  return true;
}

CliResult run(const QStringList& args) {
  static QTemporaryDir outputs;
  const Request r{args, QProcess::systemEnvironment(), QDir::currentPath(), outputs.filePath("out"),
                  outputs.filePath("err")};
  qint64 pid = -1;
  int status = -1;
  if (!sendRequest(zygoteSocket, r) || !receiveAll(zygoteSocket, &pid, sizeof pid))
    return {-1, {}, "cli_zygote: the zygote is gone"};
  pollfd ended{zygoteSocket, POLLIN, 0};
  if (::poll(&ended, 1, untilDoneMs()) == 0 && pid > 0) ::kill(pid_t(pid), SIGKILL);  // a hang, ended as by CTest
  if (!receiveAll(zygoteSocket, &status, sizeof status)) return {-1, {}, "cli_zygote: the zygote is gone"};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, QString::fromLocal8Bit(readAll(r.outPath)),
          QString::fromLocal8Bit(readAll(r.errPath))};
}

}  // namespace cli_zygote
