// Up to five photos (JPG or PNG) picked for a form that sends them with its text: returns,
// after-sales messages, feedback. Nothing is uploaded until the form is sent.
import { Form, Upload } from 'antd';
import type { UploadFile } from 'antd';

export const PHOTOS_MAX = 5;

export function PhotoPicker({
  files,
  onChange,
  label = '照片（最多5张，JPG或PNG）',
}: {
  files: UploadFile[];
  onChange: (files: UploadFile[]) => void;
  label?: string;
}) {
  return (
    <Form.Item label={label}>
      <Upload
        accept=".jpg,.jpeg,.png"
        listType="picture-card"
        maxCount={PHOTOS_MAX}
        multiple
        fileList={files}
        beforeUpload={() => false}
        onChange={({ fileList }) => onChange(fileList.slice(0, PHOTOS_MAX))}
      >
        {files.length < PHOTOS_MAX && '+ 添加'}
      </Upload>
    </Form.Item>
  );
}
