/* console_cp.c — prints the console's output and input code pages
 * ("output:932,input:932": no spaces, which Wine's console in a pty
 * draws as cursor moves), for tests/windows/wine.sh: run after posekit
 * in one cmd.exe, it tells whether posekit gave the console back the code
 * page it found. */
#include <stdio.h>
#include <windows.h>

int main(void)
{
    printf("output:%u,input:%u\n", GetConsoleOutputCP(), GetConsoleCP());
    return 0;
}
