// Claude's plan (ExitPlanMode), as the plan it is: rendered Markdown that stays after it is approved or refused,
// not the call's input as escaped JSON (issue 28). The tool's answer stays one click away.
import { stringField } from '../../store/files';
import type { ToolItem } from '../../store/types';
import { Markdown } from '../conversation/Markdown';
import { GenericToolCard } from './GenericToolCard';
import { Output } from './Output';
import { ToolHeader } from './ToolHeader';

export function PlanExitCard({ item }: { item: ToolItem }) {
  const plan = stringField(item.input, 'plan');
  if (plan === undefined || plan.trim() === '') return <GenericToolCard item={item} />;
  return (
    <div className="tool-card tool-plan-exit" data-testid="tool-card" data-tool={item.name}>
      <ToolHeader item={item} title="Plan" />
      <div className="plan-body">
        <Markdown text={plan} />
      </div>
      {item.output !== undefined && item.output !== '' && (
        <details>
          <summary className="small muted">what Claude was told</summary>
          <Output text={item.output} />
        </details>
      )}
      {item.status === 'failed' && <div className="tool-error plain">{item.error}</div>}
    </div>
  );
}
