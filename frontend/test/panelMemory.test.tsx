// Panels remembered across a reload: a new page (a fresh Terminals, the module's cache forgotten, localStorage
// kept) opens the terminal panel, the tab in front, the Changes toggle and the checklist as they were left.
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { PlanPanel } from '../src/components/session/PlanPanel';
import { useRememberedPanel } from '../src/components/session/useRememberedPanel';
import type { PlanItem } from '../src/protocol/events';
import { MAX_REMEMBERED, panelRemembered, rememberedTab, rememberPanel, rememberTab, resetPanelMemory } from '../src/store/panelMemory';
import { Terminals } from '../src/store/terminals';
import { FakeTransport } from './fakeTransport';

const reload = () => resetPanelMemory();

function Toggle({ session }: { session: string }) {
  const [open, set] = useRememberedPanel(session, 'changes');
  return (
    <button type="button" aria-pressed={open} onClick={() => set(!open)}>
      Changes
    </button>
  );
}

beforeEach(() => {
  localStorage.clear();
  resetPanelMemory();
});

describe('panel memory', () => {
  it("reopens a session's terminal panel after a reload, and not one that was hidden", () => {
    const before = new Terminals(new FakeTransport());
    before.togglePanel('s1');
    before.togglePanel('s2');
    before.togglePanel('s2');
    reload();
    const after = new Terminals(new FakeTransport());
    expect(after.panelOpen('s1')).toBe(true);
    expect(after.panelOpen('s2')).toBe(false);
  });

  it('brings the same terminal tab forward after a reload', () => {
    rememberTab('s1', 't2');
    reload();
    expect(rememberedTab('s1')).toBe('t2');
    rememberTab('s1', undefined);
    reload();
    expect(rememberedTab('s1')).toBeUndefined();
  });

  it('keeps the Changes toggle per session', () => {
    const first = render(<Toggle session="s1" />);
    fireEvent.click(screen.getByRole('button', { name: 'Changes' }));
    first.rerender(<Toggle session="s2" />);
    expect(screen.getByRole('button', { name: 'Changes' }).getAttribute('aria-pressed')).toBe('false');
    first.unmount();
    reload();
    render(<Toggle session="s1" />);
    expect(screen.getByRole('button', { name: 'Changes' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('opens the checklist again after a reload', () => {
    const items: PlanItem[] = [{ id: '1', content: 'Write the test', status: 'pending' }];
    const first = render(<PlanPanel session="s1" items={items} />);
    fireEvent.click(screen.getByTestId('plan-toggle'));
    first.unmount();
    reload();
    render(<PlanPanel session="s1" items={items} />);
    expect(screen.getByTestId('plan-toggle').getAttribute('aria-expanded')).toBe('true');
  });

  it('forgets the sessions touched longest ago past its bound, and survives unreadable storage', () => {
    for (let i = 0; i <= MAX_REMEMBERED; i++) rememberPanel(`s${i}`, 'terminal', true);
    reload();
    expect(panelRemembered('s0', 'terminal')).toBe(false);
    expect(panelRemembered(`s${MAX_REMEMBERED}`, 'terminal')).toBe(true);
    localStorage.setItem('baton.panels', '{not json');
    reload();
    expect(panelRemembered('s1', 'terminal')).toBe(false);
  });
});
