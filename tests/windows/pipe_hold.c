/* pipe_hold.c PIPE — serves the named pipe PIPE (\\.\pipe\NAME) and never
 * reads it, for tests/windows/wine.sh: posekit writing a job's output
 * there waits, after the group's other outputs are renamed into place,
 * so an interrupt lands at a known point (the Linux test, cli/interrupt,
 * holds it with a FIFO, which Windows has not).  Each client gets an
 * instance of its own (posekit may open the name more than once: to tell
 * what it is, then to write).  Every instance is made before "ready",
 * so a client always finds one free however quickly the one before it
 * came and went; then each is waited for in turn, a client that has
 * already connected (ERROR_PIPE_CONNECTED) or connected and closed
 * (ERROR_NO_DATA) counted as come.  It prints "ready" once the pipe is
 * there, then "connected N" as each client comes. */
#include <stdio.h>
#include <windows.h>

#define INSTANCES 8

int wmain(int argc, wchar_t **argv);

int wmain(int argc, wchar_t **argv)
{
    if (argc != 2)
        return 2;
    HANDLE h[INSTANCES];
    for (int i = 0; i < INSTANCES; i++) {
        /* one-byte buffers: a write of more than that waits for a reader */
        h[i] = CreateNamedPipeW(argv[1], PIPE_ACCESS_INBOUND, PIPE_TYPE_BYTE | PIPE_WAIT,
                                PIPE_UNLIMITED_INSTANCES, 1, 1, 0, NULL);
        if (h[i] == INVALID_HANDLE_VALUE) {
            printf("cannot create the pipe: error %lu\n", GetLastError());
            return 1;
        }
    }
    printf("ready\n"); /* the pipe is there: posekit may start */
    fflush(stdout);
    for (int i = 0; i < INSTANCES; i++) {
        if (!ConnectNamedPipe(h[i], NULL) && GetLastError() != ERROR_PIPE_CONNECTED &&
            GetLastError() != ERROR_NO_DATA) {
            printf("cannot connect: error %lu\n", GetLastError());
            return 1;
        }
        printf("connected %d\n", i);
        fflush(stdout);
    }
    Sleep(INFINITE);
    return 0;
}
