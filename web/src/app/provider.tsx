// Ant Design in Chinese with the shop's theme, the host of its messages and dialogs (loaded on
// first use: components/ui-host.tsx), and TanStack Query.
// Ant Design runs without its CSS-in-JS (zeroRuntime): its components' rules come as one static
// stylesheet (main.tsx), written against CSS variables that the ConfigProvider still sets from
// the theme below. Generating and inserting every component's styles in the browser was a good
// part of the first load's main-thread time. dayjs's zh-cn locale, which the date pickers take
// from the locale below, is imported by the pages with date pickers, not by every page.
import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClientProvider } from '@tanstack/react-query';
import { UiHost } from '@/components/ui-host';
import { queryClient } from './query-client';

const THEME = {
  zeroRuntime: true,
  token: {
    colorPrimary: '#11845b',
    colorError: '#e4393c',
    colorLink: '#11845b',
    fontSize: 14,
    borderRadius: 4,
    fontFamily: '"PingFang SC", "Microsoft YaHei", "Hiragino Sans GB", "Noto Sans CJK SC", sans-serif',
  },
};

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={THEME}>
      <UiHost>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </UiHost>
    </ConfigProvider>
  );
}
