package io.courier.shuffle.proxy.auth;

/**
 * Relates Hadoop id strings without loading Hadoop: {@code attempt_<ts>_<seq>_m_<task>_<n>} belongs to
 * {@code job_<ts>_<seq>}. Used to refuse a fetch whose map attempt is of another job than the one whose
 * secret authenticated it.
 */
public final class MapAttemptIds {
    private MapAttemptIds() {
    }

    /** The job id of a map attempt id, or null when the string is not a map attempt id. */
    public static String jobOf(String mapAttempt) {
        String[] p = mapAttempt.split("_");
        if (p.length != 6 || !p[0].equals("attempt") || !p[3].equals("m")) {
            return null;
        }
        for (int i : new int[] {1, 2, 4, 5}) {
            if (p[i].isEmpty() || !p[i].chars().allMatch(Character::isDigit)) {
                return null;
            }
        }
        return "job_" + p[1] + "_" + p[2];
    }

    /** Whether {@code mapAttempt} is a map attempt of {@code job}. */
    public static boolean belongsTo(String job, String mapAttempt) {
        return job.equals(jobOf(mapAttempt));
    }
}
