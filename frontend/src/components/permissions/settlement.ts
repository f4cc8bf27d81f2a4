// How a settled permission is told: the verdict and who gave it.
import type { PermissionSettlement } from '../../store/types';

export function settlementText(s: PermissionSettlement): string {
  const verdict = s.verdict === 'deny' ? 'Denied' : s.verdict === 'allow_always' ? 'Always allowed' : 'Allowed';
  switch (s.by) {
    case 'interrupt':
      return `${verdict}: the turn was interrupted`;
    case 'sidecar_exited':
      return `${verdict}: the session’s process ended`;
    case 'policy':
      return `${verdict} by policy`;
    case 'user':
      return s.elsewhere ? `${verdict} in another window` : verdict;
  }
}
