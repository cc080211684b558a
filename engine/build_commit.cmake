cmake_minimum_required(VERSION 3.25)
# Writes the checkout's commit (with -dirty for uncommitted changes to
# tracked files) into OUT at every build; file(CONFIGURE) leaves OUT untouched
# when it is unchanged, so only a new commit recompiles what includes it.
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no OUTPUT_VARIABLE changes
                  ERROR_QUIET)
  if(NOT changes STREQUAL "")
    string(APPEND commit "-dirty")
  endif()
endif()
file(CONFIGURE OUTPUT "${OUT}" CONTENT "\"@commit@\"\n" @ONLY)
