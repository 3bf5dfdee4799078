# Writes the bash and zsh completion scripts of git-vault from the binary's own command table:
#   cmake -DBIN=<git-vault> -DOUT=<folder> -P cmake/completion.cmake
foreach(pair IN ITEMS "bash:git-vault" "zsh:_git-vault")
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 shell)
  list(GET pair 1 file)
  execute_process(COMMAND "${BIN}" completion ${shell} OUTPUT_FILE "${OUT}/${file}.tmp"
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "git vault completion ${shell} failed: ${status}")
  endif()
  file(RENAME "${OUT}/${file}.tmp" "${OUT}/${file}")
endforeach()
