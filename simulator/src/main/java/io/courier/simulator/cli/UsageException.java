package io.courier.simulator.cli;

/**
 * Bad input from the user (an unknown scheduler, a malformed number, a missing file): the command prints the
 * message as one line on stderr, without a stack trace, and exits with {@link CourierCli#EXIT_USAGE}.
 */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
