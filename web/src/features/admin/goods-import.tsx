// 导入Excel: an operator picks a goods workbook (the shape 导出Excel writes: 编号 and the goods'
// fields as headings); the origin reads it whole and answers, without writing, what each row
// would add or change and every refusal by row and column. Only a sheet without refusals can be
// imported, and then every row is written at once, or none.
import { useState } from 'react';
import { Alert, Button, Modal, Space, Table, Tag, Typography } from 'antd';
import { useImportGoods, type ImportReport } from './api';

type Plan = ImportReport['plans'][number];
type SheetError = ImportReport['errors'][number];

export function ImportButton() {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  // Bumped on each pick, so that the same file picked again (after fixing it) is read again.
  const [picks, setPicks] = useState(0);
  const importing = useImportGoods();
  const close = () => {
    setOpen(false);
    setFile(null);
    setReport(null);
    importing.reset();
  };
  const choose = async (chosen: File | null) => {
    setPicks((count) => count + 1);
    setFile(chosen);
    setReport(null);
    if (chosen) setReport(await importing.mutateAsync({ file: chosen, commit: false }));
  };
  const commit = async () => {
    if (file) setReport(await importing.mutateAsync({ file, commit: true }));
  };
  const ready = report !== null && !report.committed && report.error_count === 0 && report.added + report.changed > 0;
  return (
    <>
      <Button onClick={() => setOpen(true)}>导入Excel</Button>
      <Modal
        title="导入商品表"
        open={open}
        width={900}
        onCancel={close}
        footer={
          <Space>
            <Button onClick={close}>{report?.committed ? '完成' : '取消'}</Button>
            {!report?.committed && (
              <Button type="primary" disabled={!ready} loading={importing.isPending} onClick={() => void commit()}>
                确认导入
              </Button>
            )}
          </Space>
        }
      >
        <Typography.Paragraph>
          表格第一行为表头（可先导出一份作为模板）。有“编号”的行修改该商品，空白单元格保持不变；没有编号的行新增商品，须填写商品名称、生产厂家、规格、单位、分类和价格。
          上传后先检查，不会写入；全部无误才能导入，导入时全部写入或全部不写入。
        </Typography.Paragraph>
        <input
          type="file"
          accept=".xlsx"
          aria-label="选择商品表"
          onChange={(event) => void choose(event.target.files?.[0] ?? null)}
          key={picks}
        />
        {importing.isPending && <Typography.Paragraph>正在读取……</Typography.Paragraph>}
        {importing.error && (
          <Alert showIcon type="error" style={{ marginTop: 16 }} message={importing.error.message} data-testid="import-failed" />
        )}
        {report && (
          <div data-testid="import-report" style={{ marginTop: 16 }}>
            <Alert
              showIcon
              type={report.committed ? 'success' : report.error_count > 0 ? 'error' : 'info'}
              message={
                report.committed
                  ? `已导入：新增${report.added}个，修改${report.changed}个`
                  : report.error_count > 0
                    ? `共${report.rows}行，有${report.error_count}处错误，请修改后重新上传`
                    : `共${report.rows}行：将新增${report.added}个，修改${report.changed}个，${report.unchanged}个不变`
              }
            />
            {report.error_count > 0 ? (
              <Table<SheetError>
                rowKey={(error) => `${error.row}-${error.column}-${error.message}`}
                size="small"
                style={{ marginTop: 12 }}
                dataSource={report.errors}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                columns={[
                  { title: '行', dataIndex: 'row', width: 70 },
                  { title: '列', dataIndex: 'column', width: 140, render: (column: string) => column || '—' },
                  { title: '问题', dataIndex: 'message' },
                ]}
              />
            ) : (
              <Table<Plan>
                rowKey="row"
                size="small"
                style={{ marginTop: 12 }}
                dataSource={report.plans}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                columns={[
                  { title: '行', dataIndex: 'row', width: 70 },
                  { title: '编号', dataIndex: 'id', width: 80, render: (id: number | null) => id ?? '—' },
                  { title: '商品', dataIndex: 'name' },
                  {
                    title: '操作',
                    dataIndex: 'action',
                    width: 80,
                    render: (action: string) => (action === 'add' ? <Tag color="green">新增</Tag> : <Tag color="blue">修改</Tag>),
                  },
                  {
                    title: '改动',
                    render: (_, plan) =>
                      plan.changes.map((change) => `${change.label}：${change.before} → ${change.after}`).join('；') || '—',
                  },
                ]}
              />
            )}
          </div>
        )}
      </Modal>
    </>
  );
}
