// The app's messages and dialogs come with their code on first use: a call made before it has
// come is shown once it has, and later calls at once.
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { UiHost } from '@/components/ui-host';
import { holdersWanted, useUi } from './ui';

function Buttons() {
  const { message, modal } = useUi();
  return (
    <>
      <button onClick={() => message.success('已加入购物车')}>message</button>
      <button onClick={() => modal.info({ title: '温馨提示', content: '暂无质检报告', okText: '确定' })}>modal</button>
    </>
  );
}

describe('messages and dialogs', () => {
  it('load their holders on the first call, then show it, and the calls after it', async () => {
    const { container } = render(
      <UiHost>
        <Buttons />
      </UiHost>,
    );
    expect(container.firstElementChild?.classList.contains('ant-app')).toBe(true);
    expect(holdersWanted()).toBe(false);
    await act(async () => fireEvent.click(screen.getByText('message')));
    expect(holdersWanted()).toBe(true);
    // The holders' code is imported now: in Vitest, on a loaded machine, that takes more than the
    // second findByText waits by default.
    expect(await screen.findByText('已加入购物车', undefined, { timeout: 10_000 })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByText('modal')));
    expect(await screen.findByText('暂无质检报告')).toBeTruthy();
  });
});
