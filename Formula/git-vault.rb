# Homebrew formula for git-vault, built from the clone this file sits in:
#   brew install --HEAD --formula ./Formula/git-vault.rb
# (or from a tap that carries this file and points `head` at the repository). It builds with
# CMake against Homebrew's libraries, linked as shared libraries (the static link is for Linux),
# and installs the binary, the man page and the bash and zsh completions. The package names are
# those of README.md, "Installing".
class GitVault < Formula
  desc "Keep an AI agent's memory vault healthy inside git"
  head "file://#{File.expand_path("..", __dir__)}", using: :git, branch: "main"

  depends_on "cli11" => :build
  depends_on "cmake" => :build
  depends_on "nlohmann-json" => :build
  depends_on "pkg-config" => :build
  depends_on "fmt"
  depends_on "libgit2"
  depends_on "openssl@3"
  depends_on "snowball"
  depends_on "yaml-cpp"

  def install
    system "cmake", "-S", ".", "-B", "build", "-DBUILD_TESTING=OFF",
           "-DGIT_VAULT_STATIC_DEPS=OFF", *std_cmake_args
    system "cmake", "--build", "build"
    system "cmake", "--install", "build"
  end

  test do
    assert_match "git-vault version", shell_output("#{bin}/git-vault --version")
    system "git", "init", "-q"
    system bin/"git-vault", "init"
    assert_predicate testpath/".memory/10-Memories", :directory?
    assert_match "_git_vault", (bash_completion/"git-vault").read
  end
end
