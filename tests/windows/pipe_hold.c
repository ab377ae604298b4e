/* pipe_hold.c PIPE — serves the named pipe PIPE (\\.\pipe\NAME) and never
 * reads it, for tests/windows/wine.sh: posekit writing a job's output
 * there waits, after the group's other outputs are renamed into place,
 * so an interrupt lands at a known point (the Linux test, cli/interrupt,
 * holds it with a FIFO, which Windows has not).  Each client gets an
 * instance of its own (posekit may open the name more than once: to tell
 * what it is, then to write).  It prints "ready" once the pipe is there,
 * then "connected N" as each client comes. */
#include <stdio.h>
#include <windows.h>

int wmain(int argc, wchar_t **argv);

int wmain(int argc, wchar_t **argv)
{
    if (argc != 2)
        return 2;
    for (int i = 0; i < 8; i++) {
        /* one-byte buffers: a write of more than that waits for a reader */
        HANDLE h = CreateNamedPipeW(argv[1], PIPE_ACCESS_INBOUND, PIPE_TYPE_BYTE | PIPE_WAIT,
                                    PIPE_UNLIMITED_INSTANCES, 1, 1, 0, NULL);
        if (h == INVALID_HANDLE_VALUE) {
            printf("cannot create the pipe: error %lu\n", GetLastError());
            return 1;
        }
        if (i == 0) {
            printf("ready\n"); /* the pipe is there: posekit may start */
            fflush(stdout);
        }
        if (!ConnectNamedPipe(h, NULL) && GetLastError() != ERROR_PIPE_CONNECTED) {
            printf("cannot connect: error %lu\n", GetLastError());
            return 1;
        }
        printf("connected %d\n", i);
        fflush(stdout);
    }
    Sleep(INFINITE);
    return 0;
}
